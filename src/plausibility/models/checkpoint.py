"""`load_checkpoint_scorer`: a checkpoint written by `plausibility fit`, as a TripleScorer."""

import importlib
import warnings
from pathlib import Path

import torch
from torch import nn

from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.models.system import PlausibilityModule
from plausibility.scoring.protocols import TripleScorer

_SYSTEM_ARGS = ("vocabulary", "abstractions", "min_depth", "wsd", "eval_batch_size")


def _net_class(path: str, class_path: str) -> type[nn.Module]:
    """The net class a checkpoint names, accepted only from this package: a checkpoint never picks code to run."""
    module, _, name = class_path.rpartition(".")
    net = getattr(importlib.import_module(module), name, None) if module.startswith("plausibility.") else None
    if not (isinstance(net, type) and issubclass(net, nn.Module)):
        raise DataFormatError(f"{path}: {class_path!r} is not a net of this package; retrain with `plausibility fit`")
    return net


def read_checkpoint(path: str) -> dict:
    """A checkpoint's contents on the CPU, read as tensors and plain containers only."""
    if not Path(path).is_file():
        raise ResourceMissingError(f"{path}: no such checkpoint; train one with `plausibility fit`")
    try:
        # weights_only: tensors and plain containers only, so a checkpoint cannot run code when read.
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for unreadable or unsafe files
        raise DataFormatError(f"{path}: not a readable checkpoint ({str(error).splitlines()[0]})") from error


def build_module(source: str, hparams: dict, net_state: dict[str, torch.Tensor]) -> PlausibilityModule:
    """The trained system from its saved hyperparameters and its net's weights, in eval mode on the CPU.

    The one path from saved config to model, shared by checkpoints and exported folders: the net class comes
    from this package only, and weights of any floating dtype (an export's fp16) load into float32 parameters.
    """
    net_config = hparams.get("net")
    if not isinstance(net_config, dict) or "class_path" not in net_config:
        raise DataFormatError(f"{source}: no net config; use a model written by `plausibility fit` or `export`")
    net = _net_class(source, net_config["class_path"])(**net_config.get("init_args", {}))
    with warnings.catch_warnings():
        # Outside `plausibility fit` the net reaches the system as a module; nothing is saved from here.
        warnings.filterwarnings("ignore", message="Attribute 'net' is an instance of `nn.Module`")
        module = PlausibilityModule(net=net, **{name: hparams[name] for name in _SYSTEM_ARGS if name in hparams})
    try:
        module.net.load_state_dict(
            {name: tensor.float() if tensor.is_floating_point() else tensor for name, tensor in net_state.items()}
        )
    except RuntimeError as error:
        raise DataFormatError(
            f"{source}: weights do not fit the configured net ({str(error).splitlines()[0]})"
        ) from error
    return module.eval()


def net_state_dict(path: str, checkpoint: dict) -> dict[str, torch.Tensor]:
    """The net's weights of a checkpoint's system state (every key is `net.`-prefixed)."""
    state = checkpoint.get("state_dict")
    if not isinstance(state, dict) or not state:
        raise DataFormatError(f"{path}: no weights in the checkpoint; use one written by `plausibility fit`")
    others = [name for name in state if not name.startswith("net.")]
    if others:
        raise DataFormatError(f"{path}: weights outside the net ({others[0]!r}); use one written by `plausibility fit`")
    return {name.removeprefix("net."): tensor for name, tensor in state.items()}


def load_checkpoint_module(path: str) -> PlausibilityModule:
    """The trained system, rebuilt from the checkpoint's saved config and weights, in eval mode on the CPU."""
    checkpoint = read_checkpoint(path)
    return build_module(path, checkpoint.get("hyper_parameters", {}), net_state_dict(path, checkpoint))


def load_checkpoint_scorer(path: str) -> TripleScorer:
    """The scorer of a trained checkpoint (ConceptMax-trained ones score by the maximum over abstractions)."""
    return load_checkpoint_module(path).scorer()

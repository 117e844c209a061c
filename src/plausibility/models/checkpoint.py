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


def load_checkpoint_module(path: str) -> PlausibilityModule:
    """The trained system, rebuilt from the checkpoint's saved config and weights, in eval mode on the CPU."""
    checkpoint = read_checkpoint(path)
    hparams = checkpoint.get("hyper_parameters", {})
    net_config = hparams.get("net")
    if not isinstance(net_config, dict) or "class_path" not in net_config:
        raise DataFormatError(f"{path}: no net config in the checkpoint; use one written by `plausibility fit`")
    net = _net_class(path, net_config["class_path"])(**net_config.get("init_args", {}))
    with warnings.catch_warnings():
        # Outside `plausibility fit` the net reaches the system as a module; nothing is saved from here.
        warnings.filterwarnings("ignore", message="Attribute 'net' is an instance of `nn.Module`")
        module = PlausibilityModule(net=net, **{name: hparams[name] for name in _SYSTEM_ARGS if name in hparams})
    module.load_state_dict(checkpoint["state_dict"])
    return module.eval()


def load_checkpoint_scorer(path: str) -> TripleScorer:
    """The scorer of a trained checkpoint (ConceptMax-trained ones score by the maximum over abstractions)."""
    return load_checkpoint_module(path).scorer()

"""The one loader of trained models: a checkpoint or an exported folder, rebuilt by its saved net's class.

Both formats hold the module's saved hyperparameters and its net's weights; `plausibility.models.checkpoint`
and `plausibility.models.model_folder` read them without unpickling, and this module turns them into a
scorer. The net class a file names is looked up in `NETS`, so a file never picks code to run.
"""

from pathlib import Path

import torch
from torch import nn

from plausibility.baselines.glove_mlp import GloveMlpNet
from plausibility.devices import DEFAULT_OPTIONS, LoadOptions
from plausibility.errors import DataFormatError
from plausibility.models.checkpoint import net_state_dict, read_checkpoint
from plausibility.models.components.classifier import TripleClassifier
from plausibility.models.components.concept_inject import ConceptInjectClassifier
from plausibility.models.inference import DEFAULT_BATCH_SIZE
from plausibility.models.model_folder import ModelFolder
from plausibility.models.net_lexicon import net_lexicon
from plausibility.scorers.net import trained_scorer
from plausibility.scorers.protocol import TripleScorer


def _class_path(net: type[nn.Module]) -> str:
    return f"{net.__module__}.{net.__qualname__}"


# The nets a saved model may name (by the `class_path` of its config), and nothing else.
NETS: dict[str, type[nn.Module]] = {
    _class_path(net): net for net in (TripleClassifier, ConceptInjectClassifier, GloveMlpNet)
}


def _is_float(value: object) -> bool:
    return isinstance(value, torch.Tensor) and value.is_floating_point()


def net_class(source: str, hparams: dict) -> type[nn.Module]:
    """The allow-listed net class a saved model's config names; any other fails in one line."""
    net_config = hparams.get("net")
    if not isinstance(net_config, dict) or "class_path" not in net_config:
        raise DataFormatError(f"{source}: no net config; use a model written by `plausibility fit` or `export`")
    net = NETS.get(net_config["class_path"])
    if net is None:
        known = ", ".join(cls.__name__ for cls in NETS.values())
        raise DataFormatError(
            f"{source}: {net_config['class_path']!r} is not a net of this package ({known}); "
            "retrain with `plausibility fit`"
        )
    return net


def build_trained(
    source: str,
    hparams: dict,
    net_state: dict[str, torch.Tensor],
    options: LoadOptions = DEFAULT_OPTIONS,
    expect: type[nn.Module] | None = None,
) -> TripleScorer:
    """The trained model's scorer from its saved hyperparameters and its net's weights, in eval mode.

    Weights of any floating dtype (an export's fp16) load into float32 parameters, which then move to the
    options' device (the CPU by default) and dtype. With `expect`, a net of another class is refused. The
    training system (a Lightning module) is not built: scoring needs only the net and its lexicon, and
    Lightning alone takes seconds to import.
    """
    net = net_class(source, hparams)
    if expect is not None and net is not expect:
        raise DataFormatError(f"{source}: holds a {net.__name__} net, not a {expect.__name__}; give one trained so")
    net = net(**hparams["net"].get("init_args", {}))
    settings = {name: hparams[name] for name in ("min_depth", "wsd") if name in hparams}
    lexicon = net_lexicon(net, hparams.get("vocabulary"), **settings)
    try:
        # Not every entry is a tensor: GloVe+MLP keeps its vocabulary as the net's extra state.
        net.load_state_dict({name: value.float() if _is_float(value) else value for name, value in net_state.items()})
    except RuntimeError as error:
        raise DataFormatError(
            f"{source}: weights do not fit the configured net ({str(error).splitlines()[0]})"
        ) from error
    # Loaded, the saved weights are garbage; an import made while building the net can leave this frame in a
    # reference cycle that would keep them until the cyclic collector runs.
    del net_state
    net = net.to(device=options.torch_device("cpu"), dtype=options.torch_dtype()).eval()
    batch_size = options.batch_size or hparams.get("eval_batch_size") or DEFAULT_BATCH_SIZE
    return trained_scorer(net, lexicon, hparams.get("abstractions", 0), batch_size)


def load_trained(
    path: str | Path, options: LoadOptions = DEFAULT_OPTIONS, expect: type[nn.Module] | None = None
) -> TripleScorer:
    """The scorer of a checkpoint (`*.ckpt`) or an exported folder, in eval mode, with the net's own probabilities.

    Its logits, or ConceptMax's maximum where it was trained as one; calibration is the registry's to add.
    """
    source = str(path)
    if Path(path).is_dir():  # ModelFolder.load says what an exported folder lacks
        return build_trained(source, *ModelFolder(path).load(), options, expect)  # the weights bound to no name here
    checkpoint = read_checkpoint(source)
    hparams = checkpoint.get("hyper_parameters", {})
    return build_trained(source, hparams, net_state_dict(source, checkpoint), options, expect)

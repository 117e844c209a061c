"""Writing a trained model's folder (`plausibility.models.model_folder`'s format): fp16 weights, config, lexicon.

A checkpoint of `plausibility fit` carries optimizer state and pickled containers (271 MB for MiniLM); the
folder carries the net's weights in fp16 safetensors and the config and lexicon that rebuild it. What is
measured on those weights (evaluation, calibration, the card) is written beside them by
`plausibility.release.export`.
"""

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import torch
import yaml

from plausibility.errors import DataFormatError
from plausibility.models.checkpoint import checkpoint_of, net_state_dict, read_checkpoint
from plausibility.models.model_folder import (
    CONFIG,
    EXTRA_STATE,
    FORMAT,
    LEXICON,
    LEXICON_ARGS,
    WEIGHTS,
    is_model_folder,
    read_model_folder,
)
from plausibility.models.run_record import run_record
from plausibility.resources.paths import portable_path
from plausibility.version import __version__

# Hyperparameters that only `plausibility fit` uses to build the module (not model settings).
_INTERNAL_ARGS = ("_instantiator",)


@dataclass(frozen=True)
class TrainedModel:
    """A trained model as its folder is written from it.

    Attributes:
        source: the checkpoint or folder it was read from.
        hparams: the module's saved hyperparameters (`net`, `abstractions`, the lexicon's settings, ...).
        net_state: the net's weights, and its extra state where it has one.
        training: how it was trained: checkpoint, global step, epoch, batch size, pairs, training seconds.
        summary: what it is in one line, where an exported folder says so (exported anew, it keeps it).
    """

    source: Path
    hparams: dict
    net_state: dict[str, object]
    training: dict[str, object]
    summary: str | None = None


def trained_model(source: str | Path) -> TrainedModel:
    """The model a RUN_OR_CKPT names (a checkpoint, a run folder's last one), or an exported folder to export anew."""
    if is_model_folder(source):
        hparams, state = read_model_folder(source)
        config = yaml.safe_load((Path(source) / CONFIG).read_text(encoding="utf-8"))
        return TrainedModel(Path(source), hparams, state, dict(config.get("training") or {}), config.get("summary"))
    path = checkpoint_of(source)
    checkpoint = read_checkpoint(str(path))
    hparams = checkpoint.get("hyper_parameters", {})
    if "net" not in hparams:
        raise DataFormatError(f"{path}: no net config in the checkpoint; use one written by `plausibility fit`")
    run = run_record(path)
    training = {
        "checkpoint": portable_path(path),
        "global_step": int(checkpoint.get("global_step", 0)),
        "epoch": int(checkpoint.get("epoch", 0)),
        "lightning_version": checkpoint.get("pytorch-lightning_version"),
        "batch_size": run.batch_size,
        "pairs": None if run.pairs is None else portable_path(run.pairs),
        "training_seconds": None if run.training_seconds is None else round(run.training_seconds),
    }
    return TrainedModel(path, hparams, net_state_dict(str(path), checkpoint), training)


def _write_net_state(net_state: dict[str, object], folder: Path) -> None:
    """Tensors into fp16 safetensors; a net's extra state (GloVe+MLP's vocabulary) into JSON beside them."""
    from safetensors.torch import save_file

    tensors = {
        name: (value.to(torch.float16) if value.is_floating_point() else value).contiguous()
        for name, value in net_state.items()
        if isinstance(value, torch.Tensor)
    }
    save_file(tensors, folder / WEIGHTS, metadata={"format": "pt", "plausibility": FORMAT})
    extra = {name: value for name, value in net_state.items() if not isinstance(value, torch.Tensor)}
    if extra:
        try:
            text = json.dumps(extra)
        except TypeError as error:
            raise DataFormatError(
                f"the net's extra state cannot be written as JSON ({error}); it cannot be exported"
            ) from error
        (folder / EXTRA_STATE).write_text(text, encoding="utf-8")


def write_model_folder(folder: Path, model: TrainedModel, identity: dict[str, str]) -> dict:
    """Write the weights (fp16), `config.yaml` and `lexicon.json` of `model` into `folder`; returns the config.

    A model read from an exported folder keeps its weights file byte for byte.

    Args:
        identity: the model's `name`, `version` and one-line `summary`, recorded at the top of its config.
    """
    if is_model_folder(model.source):
        for name in (WEIGHTS, EXTRA_STATE):
            if (model.source / name).is_file():
                shutil.copyfile(model.source / name, folder / name)
    else:
        _write_net_state(model.net_state, folder)
    hparams = model.hparams
    settings = {k: v for k, v in hparams.items() if k not in (*LEXICON_ARGS, *_INTERNAL_ARGS)}
    config = {"format": FORMAT, **identity, "plausibility_version": __version__, "model": settings}
    config["training"] = model.training
    (folder / CONFIG).write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    vocabulary = hparams.get("vocabulary")
    lexicon = {
        "vocabulary": None if vocabulary is None else list(vocabulary),
        "min_depth": hparams.get("min_depth", 4),
        "wsd": hparams.get("wsd", "mfs"),
    }
    (folder / LEXICON).write_text(json.dumps(lexicon, indent=1) + "\n", encoding="utf-8")
    return config

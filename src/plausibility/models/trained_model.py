"""A trained model as export reads it: from a checkpoint of `plausibility fit` (which carries optimizer state and
pickled containers, 271 MB for MiniLM), or from an exported folder to export anew."""

from pathlib import Path

from plausibility.errors import DataFormatError
from plausibility.models.checkpoint import checkpoint_of, net_state_dict, read_checkpoint
from plausibility.models.model_folder import ModelFolder, TrainedModel
from plausibility.models.run_record import run_record
from plausibility.resources.paths import portable_path


def trained_model(source: str | Path) -> TrainedModel:
    """The model a RUN_OR_CKPT names (a checkpoint, a run folder's last one), or an exported folder to export anew."""
    folder = ModelFolder(source)
    if folder.holds_net:
        hparams, state = folder.load()
        config = folder.config()
        return TrainedModel(folder.path, hparams, state, dict(config.get("training") or {}), config.get("summary"))
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

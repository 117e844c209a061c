"""A training run's folder: `trainer.default_root_dir` holds its checkpoints, logs and resolved config.

The configs name the folder once (`trainer.default_root_dir`); the loggers and the checkpoint callback
take their paths from it here, so `--trainer.default_root_dir runs/mine` moves every file of the run.
"""

import importlib
from pathlib import Path

from jsonargparse import Namespace
from lightning.pytorch.callbacks import ModelCheckpoint

from plausibility.errors import OutputPathError

# The loggers of a run whose config sets none: metrics as CSV (what `export` and `report` read) and TensorBoard.
LOGGERS = (
    ("lightning.pytorch.loggers.CSVLogger", "logs"),
    ("lightning.pytorch.loggers.TensorBoardLogger", "tensorboard"),
)
CHECKPOINTS = "checkpoints"


def run_root(trainer: Namespace) -> Path:
    """The run folder: `trainer.default_root_dir`, or the working folder as Lightning takes it when unset."""
    return Path(trainer.get("default_root_dir") or ".")


def _is_checkpoint_callback(callback: object) -> bool:
    if not isinstance(callback, Namespace) or not isinstance(callback.get("class_path"), str):
        return False
    module, _, name = callback.class_path.rpartition(".")
    cls = getattr(importlib.import_module(module), name, None)
    return isinstance(cls, type) and issubclass(cls, ModelCheckpoint)


def place_in_run_folder(trainer: Namespace) -> list[Path]:
    """Point unset logger and checkpoint paths of the `trainer` config into its run folder, in place.

    Returns the checkpoint folders, so a new run can be refused where an earlier one left checkpoints.
    """
    root = run_root(trainer)
    if trainer.get("logger") is None:
        trainer.logger = [
            Namespace(class_path=class_path, init_args=Namespace(save_dir=str(root), name=name))
            for class_path, name in LOGGERS
        ]
    folders = []
    for callback in trainer.get("callbacks") or []:
        if _is_checkpoint_callback(callback):
            if callback.init_args.get("dirpath") is None:
                callback.init_args.dirpath = str(root / CHECKPOINTS)
            folders.append(Path(callback.init_args.dirpath))
    return folders


def refuse_reuse(checkpoint_folders: list[Path], root: Path) -> None:
    """A new run never writes its checkpoints beside an earlier run's; resuming one goes through `--ckpt_path`."""
    for folder in checkpoint_folders:
        earlier = sorted(folder.glob("*.ckpt"))
        if earlier:
            last = folder / "last.ckpt" if (folder / "last.ckpt").is_file() else earlier[0]
            raise OutputPathError(
                f"--trainer.default_root_dir {root}: holds an earlier run ({last}); give a new folder, "
                f"or resume that run with --ckpt_path {last}"
            )

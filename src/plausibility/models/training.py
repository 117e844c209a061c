"""Training entry point: LightningCLI over the plausibility system and the pairs data, errors in one line."""

import logging
import signal
import warnings
from collections.abc import Sequence
from pathlib import Path

import lightning as L
import pyarrow as pa
import pyarrow.parquet as pq
import torch
from jsonargparse import ArgumentError
from lightning.fabric.utilities.exceptions import MisconfigurationException
from lightning.pytorch.cli import LightningArgumentParser, LightningCLI
from lightning.pytorch.utilities.exceptions import SIGTERMException

from plausibility.atomic import write_failure
from plausibility.errors import DataFormatError, PlausibilityError, ResourceMissingError, Terminated
from plausibility.models.callbacks import TRAINING
from plausibility.models.datamodule import PairsDataModule
from plausibility.models.run_folder import place_in_run_folder, refuse_reuse, run_root
from plausibility.models.system import PlausibilityModule
from plausibility.progress import shown
from plausibility.resources.paths import configs_dir, resolve_data_path, shipped_model_configs

# The LightningCLI subcommands `plausibility` offers.
STAGES = ("fit", "validate", "test")


# What Lightning takes for `ckpt_path` besides a file.
_CHECKPOINT_WORDS = ("last", "best", "hpc", "registry")


def _check_checkpoint(ckpt_path: str | None) -> None:
    if ckpt_path is None or ckpt_path in _CHECKPOINT_WORDS or "://" in ckpt_path or Path(ckpt_path).is_file():
        return
    raise ResourceMissingError(
        f"--ckpt_path {ckpt_path}: no such checkpoint; give the .ckpt of an earlier run "
        "(e.g. runs/<model>/checkpoints/last.ckpt), or last or best"
    )


def _check_pairs(pairs: str) -> None:
    path = resolve_data_path(pairs)
    try:
        pq.read_schema(path)
    except (pa.ArrowInvalid, OSError) as error:
        raise DataFormatError(
            f"{path}: not a Parquet file; give --data.pairs the pairs.parquet that `plausibility negatives FOLDER` "
            "writes"
        ) from error


def _check_accelerator(accelerator: object) -> None:
    if accelerator in ("gpu", "cuda") and not torch.cuda.is_available():
        raise PlausibilityError(
            f"--trainer.accelerator {accelerator}: no CUDA GPU is visible on this machine; use "
            "--trainer.accelerator=cpu (or auto)"
        )


class TrainingCLI(LightningCLI):
    """LightningCLI that hands the data's pairs file and training nouns to the model, so each is given once."""

    def add_arguments_to_parser(self, parser: LightningArgumentParser) -> None:
        parser.link_arguments("data.vocabulary", "model.vocabulary", apply_on="instantiate")
        # GloVe+MLP gives the words of the training pairs trainable rows; nets without `pairs` are left alone.
        parser.link_arguments("data.pairs", "model.net.init_args.pairs", apply_on="parse")

    def before_instantiate_classes(self) -> None:
        """Check what Lightning would find only after building the model, or report as a traceback."""
        config = self.config[self.subcommand] if self.subcommand else self.config
        _check_checkpoint(config.get("ckpt_path"))
        _check_pairs(config.data.pairs)
        _check_accelerator(config.trainer.accelerator)
        checkpoint_folders = place_in_run_folder(config.trainer)
        if self.subcommand == "fit" and config.get("ckpt_path") is None:
            refuse_reuse(checkpoint_folders, run_root(config.trainer))


def resolve_config(value: str) -> str:
    """A `--config` value as a path: a file as given, else the shipped config of that name."""
    if Path(value).is_file():
        return value
    shipped = shipped_model_configs()
    if Path(value).name == value and value.removesuffix(".yaml") in shipped:
        return str(configs_dir() / "models" / f"{value.removesuffix('.yaml')}.yaml")
    raise ResourceMissingError(
        f"--config {value}: no such file or shipped config; give a YAML file or one of {', '.join(shipped)}"
    )


def _with_shipped_configs(arguments: Sequence[str]) -> list[str]:
    resolved, following = [], False
    for argument in arguments:
        if following:
            argument, following = resolve_config(argument), False
        elif argument in ("--config", "-c"):
            following = True
        elif argument.startswith("--config="):
            argument = f"--config={resolve_config(argument.removeprefix('--config='))}"
        resolved.append(argument)
    return resolved


def _noting() -> bool:
    """Whether notes are wanted (not `-q`): Lightning's model summary is one."""
    return logging.getLogger("plausibility").isEnabledFor(logging.INFO)


def _one_line(message: str) -> str:
    return " ".join(line.strip() for line in message.splitlines() if line.strip())


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM before the training loop runs stops at once; within it, Lightning's own handler (called first)
    stops the run after its batch, and `BestAndLastModelCheckpoint` saves `last.ckpt` there."""
    if not TRAINING.is_set():
        raise Terminated


def run_lightning(subcommand: str, arguments: Sequence[str]) -> int:
    """Run one LightningCLI subcommand with its own arguments (`--config`, `--trainer.*`, `--ckpt_path`)."""
    signal.signal(signal.SIGTERM, _terminate)
    # The arguments are the command line's own, handed on after the subcommand was read from it.
    warnings.filterwarnings("ignore", message="LightningCLI's args parameter is intended")
    # Errors are raised, not printed after a page of usage: main() prints them as one line (usage: --help).
    raising = {"exit_on_error": False, "allow_abbrev": False}
    try:
        cli = TrainingCLI(
            PlausibilityModule,
            PairsDataModule,
            args=[subcommand, *_with_shipped_configs(arguments)],
            save_config_kwargs={"overwrite": True},
            seed_everything_default=0,
            # Off when piped or quiet (-q); a config or --trainer.* option still decides.
            trainer_defaults={"enable_progress_bar": shown(), "enable_model_summary": _noting()},
            parser_kwargs={**raising, **{name: raising for name in STAGES}},
        )
    except ArgumentError as error:
        raise PlausibilityError(f"{_one_line(str(error))} (the options: plausibility {subcommand} --help)") from error
    except MisconfigurationException as error:
        raise PlausibilityError(f"{_one_line(str(error))}; check the --trainer options") from error
    except SIGTERMException:
        raise Terminated from None
    except OSError as error:  # a checkpoint or log that cannot be written: a full disk, a quota, a read-only folder
        if (failure := write_failure(Path(error.filename or "."), error)) is not None:
            raise failure from error
        raise
    if subcommand == "fit" and cli.trainer.is_global_zero:
        logging.getLogger(__name__).info(_where_it_went(cli.trainer))  # a note: -q leaves it out
    return 0


def _where_it_went(trainer: L.Trainer) -> str:
    """The last line of `fit`: the run folder and the checkpoints it wrote (what `export` and `--ckpt_path` take)."""
    line = f"run folder: {trainer.default_root_dir}"
    callback = trainer.checkpoint_callback
    if callback is not None and getattr(callback, "last_model_path", ""):
        line += f"; last checkpoint: {callback.last_model_path}"
    score = getattr(callback, "best_model_score", None)
    if callback is not None and score is not None and callback.best_model_path:
        line += f"; best ({callback.monitor} {float(score):.4f}): {callback.best_model_path}"
    return line

"""`plausibility fit|validate|test`: LightningCLI over the plausibility system and the pairs data."""

import argparse
import warnings
from collections.abc import Sequence

from lightning.pytorch.cli import LightningArgumentParser, LightningCLI

from plausibility.models.datamodule import PairsDataModule
from plausibility.models.system import PlausibilityModule

SUBCOMMANDS = {
    "fit": "train a plausibility model from a config (LightningCLI)",
    "validate": "AUC of a model on the valid halves of Pep-3k and 20Q (LightningCLI)",
    "test": "AUC of a model on the test halves of Pep-3k and 20Q (LightningCLI)",
}


class TrainingCLI(LightningCLI):
    """LightningCLI that hands the training nouns from the data to the model once the data is built."""

    def add_arguments_to_parser(self, parser: LightningArgumentParser) -> None:
        parser.link_arguments("data.vocabulary", "model.vocabulary", apply_on="instantiate")


def run_lightning(subcommand: str, arguments: Sequence[str]) -> int:
    """Run one LightningCLI subcommand with its own arguments (`--config`, `--trainer.*`, `--ckpt_path`)."""
    # The arguments are the command line's own, handed on after the subcommand was read from it.
    warnings.filterwarnings("ignore", message="LightningCLI's args parameter is intended")
    TrainingCLI(
        PlausibilityModule,
        PairsDataModule,
        args=[subcommand, *arguments],
        save_config_kwargs={"overwrite": True},
        seed_everything_default=0,
    )
    return 0


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    for subcommand, summary in SUBCOMMANDS.items():
        # LightningCLI parses its own options: `+` as the only prefix makes argparse pass every `--x` through.
        parser = subparsers.add_parser(subcommand, help=summary, add_help=False, prefix_chars="+")
        parser.add_argument("arguments", nargs="*")
        parser.set_defaults(run=lambda args, subcommand=subcommand: run_lightning(subcommand, args.arguments))

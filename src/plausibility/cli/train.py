"""`plausibility fit|validate|test`: LightningCLI over the plausibility system and the pairs data."""

import argparse

from plausibility.cli import verbosity

SUBCOMMANDS = {
    "fit": "train a plausibility model from a config (LightningCLI)",
    "validate": "AUC of a model on the valid halves of Pep-3k and 20Q (LightningCLI)",
    "test": "AUC of a model on the test halves of Pep-3k and 20Q (LightningCLI)",
}

SHORT_HELP = """usage: plausibility {stage} --config CONFIG [--section.option=VALUE ...] [--ckpt_path CKPT]

{summary}.

examples:
  plausibility {stage} --config configs/models/concept_max.yaml
  plausibility {stage} --config roberta --trainer.max_steps=200 --model.optimizer.init_args.lr=2e-5
  plausibility {stage} --config concept_max --trainer.default_root_dir runs/mine
  plausibility {stage} --config concept_max --ckpt_path runs/concept_max/checkpoints/last.ckpt

common options:
  --config CONFIG         a YAML file, or a shipped config by name: {configs}
                          (the *-paper ones hold the thesis's settings)
  --model.OPTION=VALUE    the system and its net (e.g. --model.abstractions=3, --model.net.init_args.backbone=ID)
  --data.OPTION=VALUE     the pairs and batches (e.g. --data.pairs=pairs.parquet, --data.batch_size=32)
  --trainer.OPTION=VALUE  Lightning's Trainer (e.g. --trainer.max_steps=400, --trainer.accelerator=cpu)
  --trainer.default_root_dir DIR
                          the run folder: DIR/checkpoints, DIR/logs/version_N (metrics.csv, the resolved
                          config.yaml), DIR/tensorboard; fit refuses a folder holding an earlier run's checkpoints
  --ckpt_path CKPT        resume from (fit, into the same run folder) or evaluate (validate, test) a checkpoint
  --print_config          print the resolved config and exit

Every option, from the classes' signatures: plausibility {stage} --help-all
"""


def _run(subcommand: str, args: argparse.Namespace) -> int:
    change, args.arguments = verbosity.pop_flags(args.arguments)
    if change:
        verbosity.configure(args.verbose - args.quiet + change)
    if args.arguments in (["--help"], ["-h"]):
        from plausibility.resources.paths import shipped_model_configs

        configs = ", ".join(name for name in shipped_model_configs() if not name.endswith("-paper"))
        summary = SUBCOMMANDS[subcommand][: -len(" (LightningCLI)")]
        print(SHORT_HELP.format(stage=subcommand, summary=summary, configs=configs))
        return 0
    arguments = ["--help" if argument == "--help-all" else argument for argument in args.arguments]
    # Lightning is imported only when training runs: it takes seconds, and no `--help` needs it.
    from plausibility.models.training import run_lightning

    return run_lightning(subcommand, arguments)


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    for subcommand, summary in SUBCOMMANDS.items():
        # LightningCLI parses its own options: `+` as the only prefix makes argparse pass every `--x` through.
        parser = subparsers.add_parser(subcommand, help=summary, add_help=False, prefix_chars="+")
        parser.add_argument("arguments", nargs="*")
        parser.set_defaults(run=lambda args, subcommand=subcommand: _run(subcommand, args))

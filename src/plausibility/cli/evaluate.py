"""`plausibility evaluate`: AUC of a model or baseline on Pep-3k and 20Q, as a table and `metrics.json`."""

import argparse
from pathlib import Path

from plausibility.benchmarks.datasets import DATASETS, SPLITS
from plausibility.cli.arguments import BATCH_HELP, add_load_options, load_options
from plausibility.errors import UnknownNameError


def _choices(kind: str, known: tuple[str, ...]) -> "argparse._ActionType":
    def parse(value: str) -> list[str]:
        names = [name.strip() for name in value.split(",") if name.strip()]
        for name in names:
            if name not in known:
                raise argparse.ArgumentTypeError(str(UnknownNameError(kind, name, known)))
        return names

    return parse


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "evaluate",
        help="AUC of a model on the valid and test halves of Pep-3k and 20Q",
        description="Score every event of Pep-3k and 20Q with a model SPEC, print the AUC table and write "
        "OUTPUT/metrics.json. A SPEC is a checkpoint path, a baseline name, conceptmax:<SPEC> or "
        "ensemble:<SPEC>+<SPEC>.",
        epilog="Example: plausibility evaluate --model runs/roberta/checkpoints/last.ckpt --output runs/roberta/eval",
    )
    parser.add_argument(
        "--model",
        required=True,
        metavar="SPEC",
        help="checkpoint path, baseline, conceptmax:<SPEC>, ensemble:<SPEC>+<SPEC>",
    )
    parser.add_argument("--output", required=True, type=Path, metavar="DIR", help="folder for metrics.json")
    parser.add_argument(
        "--datasets", type=_choices("dataset", DATASETS), default=list(DATASETS), help="comma-separated subset"
    )
    parser.add_argument("--splits", type=_choices("split", SPLITS), default=list(SPLITS), help="comma-separated subset")
    parser.add_argument("--dump-scores", type=Path, metavar="FILE", help="write every event's score as TSV")
    add_load_options(parser, BATCH_HELP)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from plausibility.api import load_scorer
    from plausibility.evaluation.auc import evaluate_auc, write_metrics, write_scores

    scorer = load_scorer(args.model, **load_options(args)).scorer
    results = evaluate_auc(scorer, args.datasets, args.splits)
    about = {"model": args.model, "probability": scorer.probability_mapping, "dtype": args.dtype}
    write_metrics(results, args.output / "metrics.json", about)
    if args.dump_scores:
        write_scores(results, args.dump_scores)
    table = Table(title=f"AUC of {args.model}")
    table.add_column("dataset")
    for split in args.splits:
        table.add_column(split, justify="right")
    for dataset in args.datasets:
        aucs = {result.split: result.auc for result in results if result.dataset == dataset}
        table.add_row(dataset, *(f"{aucs[split]:.3f}" for split in args.splits))
    Console().print(table)
    return 0

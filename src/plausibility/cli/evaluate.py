"""`plausibility evaluate`: a model's figures on the named benchmarks and on judged sets from files, in one table."""

import argparse
from pathlib import Path

from plausibility.benchmarks.datasets import SPLITS
from plausibility.cli.arguments import (
    BATCH_HELP,
    add_load_options,
    add_old_name,
    add_worker_options,
    check_worker_options,
    dtype_named,
    load_options,
    words,
)
from plausibility.errors import UnknownNameError

_EPILOG = """examples:
  plausibility evaluate --model ngram --output outputs/ngram
  plausibility evaluate --model default --benchmarks pep3k --splits valid --output outputs/default-valid
  plausibility evaluate --model default --benchmarks pap,plain --splits test --output outputs/default-pap
  plausibility evaluate --model zero-shot --data mine.tsv --by relation --output outputs/mine
  plausibility evaluate --model runs/roberta/checkpoints/last.ckpt --output runs/roberta/eval
  plausibility evaluate --model default --data big.tsv --benchmarks none --workers 2 --output outputs/big

A --data table has subject, verb, object and: label (0/1: AUC), rating (a number: Spearman and Pearson) or
pair and label (one typical and one atypical event per pair: pairwise accuracy). A row whose subject or
object is empty is a partial event, scored as the mean over the --fillers in that slot. Every event is scored as
its lemmas, as `plausibility score` scores a query (--as-given: as written). A file is used whole:
choose nothing on it. Besides Pep-3k and 20Q: pap (test only; AUC against the built label and against the label
annotators agreed on, with the share they did not, Spearman against the mean rating, by abstractness) and plain
(320 everyday events; AUC and accuracy at probability .5, by kind) and reversals (an attested event of two
animate nouns against its role reversal: pairwise accuracy). Writes OUTPUT/metrics.json, metrics.csv
and metrics.md (figures, 95% intervals, counts).
"""


# How the log names what each kind of judgement is read as.
_FIGURES_OF = {
    "label": "AUC",
    "rating": "Spearman, Pearson",
    "pairs": "pairwise accuracy",
    "agreed_label": "AUC on agreed labels",
    "reversals": "reversal accuracy",
}


def _choices(kind: str, known: tuple[str, ...]) -> "argparse._ActionType":
    def parse(value: str) -> list[str]:
        names = [name.strip() for name in value.split(",") if name.strip()]
        for name in names:
            if name not in known:
                raise argparse.ArgumentTypeError(str(UnknownNameError(kind, name, known)))
        return names

    return parse


def _benchmarks(value: str) -> list[str]:
    from plausibility.benchmarks.registry import BENCHMARKS

    return [] if value.strip() == "none" else _choices("benchmark", tuple(BENCHMARKS))(value)


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from plausibility.benchmarks.judged_set import DEFAULT_FILLERS
    from plausibility.benchmarks.registry import BENCHMARKS, DEFAULT_BENCHMARKS

    parser = subparsers.add_parser(
        "evaluate",
        help="a model's figures (AUC, correlations, pairwise accuracy) on Pep-3k, 20Q and judged sets from files",
        description="Score every event of the named benchmarks (Pep-3k and 20Q by default, valid and test halves) "
        "and of each --data file with a model SPEC; print one table of figures with 95% bootstrap intervals and "
        "write it to OUTPUT/metrics.json, metrics.csv and metrics.md.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--model", required=True, metavar="SPEC", help="what to evaluate: any model SPEC")
    parser.add_argument("--output", required=True, type=Path, metavar="DIR", help="folder for the figures")
    parser.add_argument(
        "--benchmarks",
        type=_benchmarks,
        default=list(DEFAULT_BENCHMARKS),
        metavar="NAMES",
        help=f"comma-separated named benchmarks of {', '.join(BENCHMARKS)} (default: {','.join(DEFAULT_BENCHMARKS)}); "
        "`none` for files only",
    )
    add_old_name(parser, "--datasets", "--benchmarks", "benchmarks", type=_benchmarks)
    parser.add_argument(
        "--splits", type=_choices("split", SPLITS), default=list(SPLITS), help="their halves (default: valid,test)"
    )
    parser.add_argument(
        "--data", type=Path, action="append", default=[], metavar="FILE", help="a judged set to evaluate too (repeat)"
    )
    parser.add_argument(
        "--by", action="append", default=[], metavar="COLUMN", help="also give each figure per value of a file's column"
    )
    parser.add_argument(
        "--fillers",
        type=words,
        default=list(DEFAULT_FILLERS),
        help=f"nouns that fill a partial event's empty slot (default: {','.join(DEFAULT_FILLERS)})",
    )
    parser.add_argument(
        "--as-given", action="store_true", help="score the events' words as written, not as their lemmas (as `score`)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap intervals (default: 0)")
    parser.add_argument("--dump-scores", type=Path, metavar="FILE", help="write every event's score as TSV")
    add_load_options(parser, BATCH_HELP)
    add_worker_options(parser, "the events 512 at a time")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import logging

    from rich.table import Table

    from plausibility.api.evaluation import evaluate
    from plausibility.cli.console import results_console
    from plausibility.evaluation.figures_table import write_figures
    from plausibility.evaluation.judged_scores import write_judged_scores
    from plausibility.scorers.shipped import shipped_versions
    from plausibility.version import __version__

    check_worker_options(args)
    options = {"workers": args.workers, "devices": args.devices, **load_options(args)}
    evaluation = evaluate(
        args.model, benchmarks=args.benchmarks, splits=args.splits, data=args.data, by=args.by, fillers=args.fillers,
        seed=args.seed, as_given=args.as_given, **options,
    )  # fmt: skip
    for scored in evaluation.scored:
        judged = scored.judged
        if judged.split == "all":
            kinds = ", ".join(_FIGURES_OF[kind] for kind in judged.kinds)
            logging.getLogger(__name__).info("%s: %d events, read as %s", judged.name, len(judged.table), kinds)
    about = {
        "plausibility_version": __version__,
        "model": {"spec": args.model, "shipped": shipped_versions(args.model), "dtype": dtype_named(args)},
        "fillers": args.fillers,
        "events": "as written" if args.as_given else "lemmas",
        "bootstrap": {"confidence": 0.95, "seed": args.seed},
    }
    write_figures(evaluation.figures, args.output, about)
    if args.dump_scores:
        write_judged_scores(evaluation.scored, args.fillers, args.dump_scores)
    table = Table(title=f"{args.model}: figures with 95% bootstrap intervals")
    for column in ("benchmark", "split", "group", "figure", "value", "95% interval", "n"):
        table.add_column(column, justify="right" if column in ("value", "n") else "left")
    for f in evaluation.figures:
        interval = f"[{f.low:.3f}, {f.high:.3f}]" if f.low == f.low else "-"
        table.add_row(f.benchmark, f.split, f.group, f.figure, f"{f.value:.3f}", interval, f"{f.n:,}")
    results_console().print(table)
    return 0

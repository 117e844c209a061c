"""`plausibility report`: AUC and consistency of every available model and baseline, beside the thesis."""

import argparse
import re
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table

from plausibility.benchmarks.datasets import DATASET_TITLES, DATASETS, SPLITS
from plausibility.cli.arguments import BATCH_HELP, add_load_options, dtype_named, load_options, positive_int, words
from plausibility.cli.console import results_console
from plausibility.errors import PlausibilityError
from plausibility.evaluation.model_request import ModelRequest

if TYPE_CHECKING:  # the report's modules (scikit-learn with them) load when it runs, not at every command's start
    from plausibility.evaluation.report import Report
    from plausibility.scorers.protocol import TripleScorer

# Baselines that need no training; each is skipped, with the reason in the report, when it cannot load.
DEFAULT_BASELINES = ("ngram", "resnik", "zero-shot")


def default_models() -> list[ModelRequest]:
    """What a report without --model measures: the baselines, the shipped models, and every opt-in LM installed."""
    from plausibility.resources.causal_lm import installed_opt_in_lms
    from plausibility.resources.paths import shipped_models

    names = [*DEFAULT_BASELINES, *(f"zero-shot:{lm}" for lm in installed_opt_in_lms())]
    names += shipped_models()
    return [ModelRequest(name, name) for name in names]


def _count(value: str) -> int | None:
    if value == "all":
        return None
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer or 'all', got {value!r}")
    return int(value)


def parse_model(text: str) -> ModelRequest:
    """`LABEL=SPEC` or a bare `SPEC`, labelled by itself or, for a checkpoint, by its run folder.

    A label holds no `/` or `:`, so checkpoint names such as `epoch=1-step=500.ckpt` stay whole SPECs.
    """
    label, equals, spec = text.partition("=")
    if equals and not re.search(r"[/:\\]", label) and not Path(text).exists():
        if not (label.strip() and spec.strip()):
            raise PlausibilityError(f"--model {text!r}: give LABEL=SPEC with both parts, or a bare SPEC")
        return ModelRequest(label.strip(), spec.strip())
    spec = text.strip()
    path = Path(spec.partition(":")[2] if spec.startswith("glove-mlp:") else spec)
    if path.suffix == ".ckpt":
        # runs/<name>/checkpoints/<file>.ckpt is what `plausibility fit` writes
        folder = path.parent.parent if path.parent.name == "checkpoints" else path.parent
        return ModelRequest(folder.name or path.stem, spec)
    return ModelRequest(spec, spec)


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from plausibility.benchmarks.judged_set import DEFAULT_FILLERS

    parser = subparsers.add_parser(
        "report",
        help="the AUC and consistency tables of every model and baseline, beside the thesis's figures",
        description="Score Pep-3k and 20Q (valid and test) with every model, then write OUTPUT/report.md and "
        "OUTPUT/results.json (AUC with bootstrap intervals; CCΔ / LER over abstraction grids), OUTPUT/auc.png "
        "and OUTPUT/config.yaml. Without --model the baselines that need no training are reported ("
        + ", ".join(DEFAULT_BASELINES)
        + ", and zero-shot:<LM> for each opt-in offline LM installed), with the shipped models (roberta, "
        "conceptmax); the checkpoint of every run under --runs is added. Those are skipped, with the reason in the "
        "report, when they cannot load; a model given with --model must load. Each model's row is kept in "
        "OUTPUT/models/ as soon as it is measured, and read back by a rerun with the same settings: a stopped "
        "report resumes.",
        epilog="Example: plausibility report --output reports/all --model ngram --model RoBERTa=runs/roberta/"
        "checkpoints/last.ckpt --consistency-events 100",
    )
    parser.add_argument("--output", required=True, type=Path, metavar="DIR", help="folder for the report")
    parser.add_argument(
        "--model", action="append", metavar="[LABEL=]SPEC", help="a model to report (repeat the option)"
    )
    parser.add_argument(
        "--runs",
        type=Path,
        default=Path("runs"),
        metavar="DIR",
        help="add the checkpoint of every run folder DIR/*/checkpoints/ (default: runs, when it exists)",
    )
    parser.add_argument("--no-runs", action="store_true", help="do not add trained runs")
    parser.add_argument(
        "--consistency-events",
        type=_count,
        default=200,
        metavar="N|all",
        help="events sampled from each set for CCΔ / LER (default 200; the thesis used all)",
    )
    parser.add_argument("--consistency-split", choices=SPLITS, default="test", help="half measured (test)")
    parser.add_argument("--no-consistency", action="store_true", help="report AUC only")
    parser.add_argument(
        "--wsd", choices=("mfs", "gloss"), help="sense choice for grids (default: each model's own, else mfs)"
    )
    parser.add_argument(
        "--min-depth", type=positive_int, help="drop hypernyms shallower than this (default: each model's own, else 4)"
    )
    parser.add_argument(
        "--data",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help="a judged set (as for evaluate --data) measured for every model too: a column group per file",
    )
    parser.add_argument("--by", action="append", default=[], metavar="COLUMN", help="split a file's figures by it")
    parser.add_argument(
        "--fillers", type=words, default=list(DEFAULT_FILLERS), help="nouns filling a partial event (person,thing)"
    )
    parser.add_argument("--resamples", type=positive_int, default=1000, help="bootstrap resamples (1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and the event sample (0)")
    parser.add_argument(
        "--chunk-size", type=positive_int, default=1024, metavar="N", help="grid cells per call to a scorer (1024)"
    )
    add_load_options(parser, BATCH_HELP)
    parser.set_defaults(run=run)


def run_checkpoints(runs: Path) -> list[ModelRequest]:
    """One checkpoint per run folder: the best one kept by its ModelCheckpoint, else `last.ckpt`.

    Any net's checkpoint is its own SPEC; one that cannot load is skipped with the loader's reason.
    """
    requests = []
    for folder in sorted(path for path in runs.glob("*/checkpoints") if path.is_dir()):
        candidates = sorted(folder.glob("*.ckpt"), key=lambda path: (path.name == "last.ckpt", path.name))
        if candidates:
            requests.append(ModelRequest(folder.parent.name, str(candidates[0])))
    return requests


def _print(report: "Report") -> None:
    table = Table(title="AUC (test half in brackets: the thesis's figure)")
    table.add_column("model")
    for dataset in DATASETS:
        for split in SPLITS:
            table.add_column(f"{DATASET_TITLES[dataset]} {split}", justify="right")
    for model in report.models:
        cells = []
        for dataset in DATASETS:
            for split in SPLITS:
                text = f"{model.auc[dataset][split].estimate:.3f}"
                if split == "test" and model.thesis:
                    text += f" ({model.thesis.auc[dataset]:.2f})"
                cells.append(text)
        table.add_row(model.label, *cells)
    console = results_console()
    console.print(table)
    for label, reason in report.skipped.items():
        console.print(f"[yellow]skipped[/yellow] {label}: {reason}")


def run(args: argparse.Namespace) -> int:
    from plausibility.api import load_scorer
    from plausibility.benchmarks.registry import check_by, judged_sets
    from plausibility.evaluation.report import build_report
    from plausibility.evaluation.results import ReportSettings
    from plausibility.evaluation.results_report import write_results_report
    from plausibility.evaluation.saved_results import SavedResults
    from plausibility.long_lived import loading_long_lived

    options = load_options(args)

    def load(spec: str) -> "TripleScorer":
        with loading_long_lived():
            return load_scorer(spec, **options).scorer

    requests = [parse_model(text) for text in args.model or []]
    optional = [] if args.model else default_models()
    if not args.no_runs and args.runs.is_dir():
        optional += run_checkpoints(args.runs)  # a run whose checkpoint cannot load is skipped, not fatal
    settings = ReportSettings(
        seed=args.seed,
        n_resamples=args.resamples,
        consistency_split=args.consistency_split,
        consistency_events=args.consistency_events,
        wsd=args.wsd,
        min_depth=args.min_depth,
        chunk_size=args.chunk_size,
        dtype=dtype_named(args),
        fillers=tuple(args.fillers),
        by=tuple(args.by),
    )
    judged = judged_sets([], [], args.data)  # a bad file fails before any model loads
    check_by(judged, args.by)
    saved = SavedResults(args.output / "models")
    report = build_report(requests, optional, settings, load, not args.no_consistency, saved, judged, args.data)
    paths = write_results_report(report, [*requests, *optional], args.output)
    _print(report)
    written = f"report: {paths['report.md']}; chart: {paths['auc.png']}; results: {paths['results.json']}"
    results_console().print(written)
    return 0

"""`plausibility consistency`: CCΔ and LER of a model over the abstraction grids of Pep-3k or 20Q events."""

import argparse
from pathlib import Path

from plausibility.benchmarks.datasets import DATASETS, SPLITS
from plausibility.cli.arguments import (
    BATCH_HELP,
    add_load_options,
    add_old_name,
    dtype_named,
    load_options,
    positive_int,
)
from plausibility.lexicon.wsd import WSD_METHODS


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "consistency",
        help="CCΔ and LER of a model across the WordNet abstractions of evaluation events",
        description="Disambiguate every event of a Pep-3k or 20Q half, score each unique abstraction "
        "(subject hypernym x object hypernym) once with a model SPEC, and measure how far the scores along "
        "each row and column of every event's grid depart from concavity (CCΔ, on the scorer's probabilities "
        "and scale-free on percentile ranks) and how often a middle abstraction is a local extremum (LER); "
        "lower is more consistent. Grids are laid out in the model's own lexicon (its training nouns, min "
        "depth and WSD; the bundled training nouns for untrained scorers) unless --wsd / --min-depth say "
        "otherwise, from each event's lemmas as `score` reads it (--as-given: as written). Writes "
        "OUTPUT/consistency.json and heatmaps of the most and least consistent events.",
        epilog="Example: plausibility consistency --model ngram --benchmarks pep3k --splits test --output runs/ngram",
    )
    parser.add_argument(
        "--model",
        required=True,
        metavar="SPEC",
        help="checkpoint path, baseline, conceptmax:<SPEC>, ensemble:<SPEC>+<SPEC>",
    )
    parser.add_argument("--benchmarks", choices=DATASETS, metavar="NAME", help="pep3k or 20q (default: pep3k)")
    parser.add_argument("--splits", choices=SPLITS, metavar="SPLIT", help="its half, valid or test (default: test)")
    add_old_name(parser, "--dataset", "--benchmarks", "benchmarks", choices=DATASETS)
    add_old_name(parser, "--split", "--splits", "splits", choices=SPLITS)
    parser.add_argument("--wsd", choices=WSD_METHODS, help="sense choice (default: the model's own, else mfs)")
    parser.add_argument(
        "--min-depth", type=positive_int, help="drop hypernyms shallower than this (default: the model's own, else 4)"
    )
    parser.add_argument("--limit", type=positive_int, metavar="N", help="only the first N events of the half")
    parser.add_argument(
        "--as-given", action="store_true", help="lay grids out from the words as written, not their lemmas (as `score`)"
    )
    parser.add_argument("--heatmaps", type=int, default=3, metavar="N", help="events drawn at each end (3; 0: none)")
    parser.add_argument(
        "--chunk-size", type=positive_int, default=1024, metavar="N", help="grid cells per call to the scorer (1024)"
    )
    add_load_options(parser, BATCH_HELP)
    parser.add_argument("--output", required=True, type=Path, metavar="DIR", help="folder for the report")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from rich.table import Table

    from plausibility.api.evaluation import consistency, consistency_events
    from plausibility.cli.console import results_console
    from plausibility.evaluation.consistency_report import write_consistency_report
    from plausibility.long_lived import loading_long_lived

    benchmark, split = args.benchmarks or "pep3k", args.splits or "test"
    options = {"wsd": args.wsd, "min_depth": args.min_depth, "chunk_size": args.chunk_size, **load_options(args)}
    options["as_given"] = args.as_given
    with loading_long_lived():
        result = consistency(args.model, benchmark=benchmark, split=split, limit=args.limit, **options)
    events = consistency_events(benchmark, split, args.limit)
    lexicon = result.lexicon
    path = write_consistency_report(
        args.model, benchmark, split, events, result, args.output, heatmaps=args.heatmaps, dtype=dtype_named(args)
    )
    table = Table(
        title=f"Consistency of {args.model} on {benchmark} {split} (WSD: {lexicon['wsd']}, min depth "
        f"{lexicon['min_depth']}, {lexicon['vocabulary']}; lower is better)"
    )
    for column in ("CCΔ", "CCΔ scale-free", "LER", "events", "windows", "unique triples", "grid cells"):
        table.add_column(column, justify="right")
    table.add_row(
        f"{result.concavity_delta:.4g}",
        f"{result.scale_free_concavity_delta:.4g}",
        f"{result.local_extremum_rate:.4g}",
        str(len(events)),
        str(result.n_windows),
        str(result.n_unique_triples),
        str(result.n_grid_triples),
    )
    console = results_console()
    console.print(table)
    console.print(f"probabilities: {result.probability_mapping}; report: {path}")
    return 0

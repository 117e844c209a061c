"""`plausibility extract` and `plausibility negatives`: corpus files to triples, triples to training pairs."""

import argparse
import logging
from pathlib import Path

from rich.table import Table

from plausibility.cli.arguments import add_old_name
from plausibility.cli.console import results_console
from plausibility.corpus.engines import ENGINES
from plausibility.corpus.extraction import RuleOptions
from plausibility.corpus.parsers import PARSERS, ParserSpec
from plausibility.corpus.pipeline import (
    DEFAULT_MAX_REPEAT,
    DEFAULT_MIN_COUNT,
    MANIFEST_FILE,
    extract_corpus,
    write_training_pairs,
)
from plausibility.progress import progress_bar


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    extract = subparsers.add_parser(
        "extract",
        help="parse corpus files into filtered subject-verb-object triples (Parquet + manifest)",
        description=(
            "Parse text with a dependency parser and keep sentences whose root verb has a common-noun subject\n"
            "and direct object and no indirect object; filter rare words and cap repeats. Writes\n"
            "OUTPUT/triples.parquet and OUTPUT/manifest.json; finished shards stay in OUTPUT/shards/, so\n"
            "running the same command again resumes an interrupted run."
        ),
        epilog=(
            "Example: plausibility extract wiki/*.txt.xz --output runs/triples --workers 2 --min-count 10\n"
            "Inputs: .txt/.txt.gz/.txt.xz (one paragraph per line), .jsonl (see --jsonl-field), WikiExtractor output."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    extract.add_argument("inputs", nargs="+", type=Path, metavar="INPUT", help="corpus files")
    extract.add_argument("--output", type=Path, required=True, help="output folder")
    extract.add_argument("--parser", choices=PARSERS, default="spacy", help="dependency parser (default: spacy)")
    extract.add_argument(
        "--parser-model", default="", help="spaCy package/folder or Stanza language (default: the offline English)"
    )
    add_old_name(extract, "--model", "--parser-model", "parser_model")
    extract.add_argument("--engine", choices=ENGINES, default="local", help="local processes or Ray Data")
    extract.add_argument("--workers", type=int, default=1, help="parser processes (default: 1)")
    extract.add_argument("--shard-size", type=int, default=1000, help="paragraphs per resumable shard")
    extract.add_argument(
        "--min-count",
        type=int,
        default=DEFAULT_MIN_COUNT,
        help=f"drop triples with a word rarer than this in its position (default {DEFAULT_MIN_COUNT}; paper 1000)",
    )
    extract.add_argument(
        "--max-repeat",
        type=int,
        default=DEFAULT_MAX_REPEAT,
        help=f"cap on the count of one triple (default {DEFAULT_MAX_REPEAT}; paper 1000)",
    )
    extract.add_argument("--passives", action="store_true", help="also extract agent-verb-patient from passives")
    extract.add_argument("--coordinated-objects", action="store_true", help="one triple per coordinated object")
    extract.add_argument("--jsonl-field", default="text", help="text field of JSONL inputs (default: text)")
    extract.set_defaults(run=run)

    negatives = subparsers.add_parser(
        "negatives",
        help="expand a triples folder into training pairs with seeded pseudo-negatives",
        description=(
            "Read FOLDER/triples.parquet, write FOLDER/pairs.parquet: one row per occurrence with a perturbed "
            "event (subject, object or both replaced by a draw from that position's unigram distribution)."
        ),
        epilog="Example: plausibility negatives runs/triples --seed 0",
    )
    negatives.add_argument("folder", type=Path, help="output folder of `plausibility extract`")
    negatives.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    negatives.set_defaults(run=run_negatives)


def run(args: argparse.Namespace) -> int:
    with progress_bar("parsing", None, "sentences") as advance:
        extraction = extract_corpus(
            args.inputs,
            args.output,
            parser=ParserSpec(args.parser, args.parser_model),
            rule=RuleOptions(passives=args.passives, coordinated_objects=args.coordinated_objects),
            engine=args.engine,
            workers=args.workers,
            shard_size=args.shard_size,
            min_count=args.min_count,
            max_repeat=args.max_repeat,
            jsonl_field=args.jsonl_field,
            on_shard=lambda result: advance(result.sentences),
        )
    table = Table(title=f"{extraction.sentences:,} sentences parsed ({extraction.shards_resumed} shards resumed)")
    for column in ("step", "occurrences", "unique events"):
        table.add_column(column, justify="right" if column != "step" else "left")
    for step in extraction.steps:
        table.add_row(step.step, f"{step.occurrences:,}", f"{step.unique:,}")
    results_console().print(table)
    logging.getLogger(__name__).info("wrote %s and %s", extraction.triples_path, extraction.manifest_path)
    return 0


def run_negatives(args: argparse.Namespace) -> int:
    pairs = write_training_pairs(args.folder, seed=args.seed)
    logging.getLogger(__name__).info("wrote %s; seed recorded in %s", pairs, args.folder / MANIFEST_FILE)
    return 0

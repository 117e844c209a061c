"""`plausibility score`: the plausibility of one triple, or of every triple in a table."""

import argparse
import json
import logging
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table

from plausibility.cli.arguments import (
    BATCH_HELP,
    add_load_options,
    add_worker_options,
    check_worker_options,
    load_options,
    positive_int,
)
from plausibility.cli.console import results_console
from plausibility.errors import CommandLineError, DataFormatError, PlausibilityError

if TYPE_CHECKING:
    from plausibility.api import Scorer
    from plausibility.query.batch import BatchResult

_EPILOG = """examples:
  plausibility score person breathe air
  plausibility score person breathe air --json
  plausibility score dentist breathe helium --model conceptmax:zero-shot
  plausibility score dentist breathe helium --explain --min-depth 4
  plausibility score --input triples.tsv --output scores.parquet --model ngram --skip-invalid --explain
  printf 'person\\tbreathe\\tair\\n' | plausibility -q score --input - --output - --format jsonl
  plausibility score --input triples.tsv --output scores.tsv --device cuda --dtype bfloat16 --batch-size 256
  plausibility score --input kb.parquet --output kb-scores --workers 2
  plausibility score --input kb.parquet --output kb-scores --device cuda --devices 4
  plausibility score --input 'kb/*.parquet' --output kb-scores --engine ray

A file's format is its suffix (.tsv, .csv, .jsonl, .parquet). `--input -` reads stdin as JSON Lines when its
first line starts with {, as TSV when it holds a tab, else as CSV; `--output -` writes stdout in --format
(default tsv), only once every row is scored, so a failed run prints no rows. An --output with no suffix is a
folder of Parquet parts (one per --chunk-size rows) and a _manifest.json: rerun the same command after an
interruption and it resumes from the last finished part. Each distinct triple is scored once per run.
Exit codes: 0 scored; 1 bad input (one line on stderr names it); 2 a wrong command line.
"""
# Formats of a `-` stream; `json` is JSON Lines too, one object per triple.
STREAM_FORMATS = {"tsv": "tsv", "csv": "csv", "jsonl": "jsonl", "json": "jsonl"}


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "score",
        help="score the plausibility of a triple or a file of triples",
        description="Score `S V O`, or every triple of --input (TSV, CSV, JSONL or Parquet with "
        "subject, verb, object columns; extra columns are kept) into --output. Each word is scored as its "
        "lemma (person eat apples as person eat apple: the models know lemmas), given beside it in the "
        "*_lemma columns; --as-given scores the words as they are. Words absent from WordNet (or unseen in a "
        "model's training) are scored and flagged. Each slot is one word, on the command line as in files: a "
        "multiword noun (ice cream) is rejected. The header is optional and matched in "
        'any case; a UTF-8 byte-order mark is ignored. TSV has no quoting (a " is a character); CSV has '
        "standard quoting.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "words", nargs="*", metavar="S V O", help="subject, verb and object of one event: one word each, as in files"
    )
    parser.add_argument(
        "--model",
        help="scorer SPEC (default: whichever of the zero-shot LM, the shipped models and ensembles of them had the "
        "highest mean valid AUC; `plausibility resources` prints the choice and its figures)",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help="also give the abstraction that scores highest (always on for conceptmax:<SPEC>)",
    )
    parser.add_argument("--top", type=int, default=3, help="abstractions listed by --explain for one triple")
    parser.add_argument(
        "--min-depth",
        type=positive_int,
        metavar="N",
        help="lay out the abstraction grids (those --explain searches, and a conceptmax:<SPEC>'s maximum) from "
        "hypernyms at least N levels below WordNet's root (default: a ConceptMax's own; the grids --explain "
        "searches for any other model, the thesis's 4)",
    )
    parser.add_argument(
        "--as-given",
        action="store_true",
        help="score the words as they are, not as their lemmas (nouns by WordNet, verbs by lemminflect)",
    )
    parser.add_argument("--input", type=Path, help="table of triples to score (- reads stdin)")
    parser.add_argument(
        "--output", type=Path, help="where to write the scored table (format from its suffix; - writes stdout)"
    )
    parser.add_argument(
        "--format",
        choices=sorted(STREAM_FORMATS),
        help="format of --output - (default tsv; json is JSON Lines, one object per triple)",
    )
    parser.add_argument("--json", action="store_true", help="one triple: print its fields as one JSON object")
    parser.add_argument(
        "--chunk-size", type=positive_int, default=4096, metavar="N", help="rows of --input read and scored at a time"
    )
    parser.add_argument("--skip-invalid", action="store_true", help="skip rows that are not triples (reported)")
    scale = add_worker_options(parser, "the chunks of --input")
    scale.add_argument(
        "--engine", choices=("local", "ray"), default="local",
        help="ray: score on the Ray cluster RAY_ADDRESS names (a local one otherwise), reading --input as a file, "
        "a folder or a glob of Parquet/CSV/TSV/JSONL files and writing Parquet parts to the --output folder",
    )  # fmt: skip
    add_load_options(parser, BATCH_HELP)
    parser.set_defaults(run=run)


def _check(args: argparse.Namespace) -> None:
    from plausibility.query.triple_files import triple_problem
    from plausibility.triple import TRIPLE_COLUMNS

    if args.input is None and len(args.words) != 3:
        raise CommandLineError(f"give three words S V O (got {len(args.words)}), or --input FILE --output FILE")
    if args.input is not None and (args.words or args.output is None):
        raise CommandLineError("with --input give --output FILE and no S V O words")
    if args.json and args.input is not None:
        raise CommandLineError("--json is for one triple S V O; for a table give --output - --format json")
    if args.format and str(args.output) != "-":
        raise CommandLineError(f"--format {args.format} is for --output -; a file's suffix names its format")
    if args.top < 1:
        raise CommandLineError(f"--top must be at least 1, got {args.top}")
    if (args.workers > 1 or args.devices or args.engine == "ray") and args.input is None:
        raise CommandLineError(
            "--workers, --devices and --engine ray score an --input table; give --input and --output"
        )
    check_worker_options(args)
    if args.engine == "ray" and (str(args.input) == "-" or str(args.output) == "-" or Path(str(args.output)).suffix):
        raise CommandLineError(
            "--engine ray reads files and writes a folder of parts: give --output a path with no suffix"
        )
    if args.input is None and (problem := triple_problem(dict(zip(TRIPLE_COLUMNS, args.words, strict=True)))):
        raise PlausibilityError(f"{problem}; give one word (a lemma) for each of S V O")


def _stdin_suffix(spool: Path) -> str:
    """The table format of what came on stdin, from its first line: JSON Lines, TSV or CSV."""
    with spool.open("rb") as file:
        first = file.readline().lstrip(b"\xef\xbb\xbf").strip()
    return ".jsonl" if first.startswith(b"{") else ".tsv" if b"\t" in first else ".csv"


@contextmanager
def _streams(args: argparse.Namespace) -> Iterator[tuple[Path, Path]]:
    """The input and output paths to score between; `-` spooled through a temporary folder.

    Stdin is copied to a file first (the rows are checked before scoring, so read twice); a table for
    stdout is written to a file and copied out once complete, so a failed run prints no rows.
    """
    with tempfile.TemporaryDirectory(prefix="plausibility-score-") as folder:
        source, output = args.input, args.output
        if str(source) == "-":
            spool = Path(folder) / "stdin"
            with spool.open("wb") as file:
                shutil.copyfileobj(sys.stdin.buffer, file)
            source = spool.rename(spool.with_suffix(_stdin_suffix(spool)))
        if str(output) == "-":
            output = Path(folder) / f"stdout.{STREAM_FORMATS[args.format or 'tsv']}"
        yield source, output
        if str(args.output) == "-":
            sys.stdout.flush()
            with output.open("rb") as table:
                shutil.copyfileobj(table, sys.stdout.buffer)
            sys.stdout.buffer.flush()


def _score_file(args: argparse.Namespace, scorer: "Scorer", explaining: bool) -> int:
    name = "stdin" if str(args.input) == "-" else str(args.input)
    with _streams(args) as (source, output):
        try:
            result = scorer.score_file(
                source, output, args.chunk_size, args.skip_invalid, args.as_given, explaining, progress=True
            )
        except DataFormatError as error:  # named by the spool file; the user gave stdin
            raise DataFormatError(str(error).replace(str(source), name)) from None
    return _report(args, result)


def _report(args: argparse.Namespace, result: "BatchResult") -> int:
    """Log the skipped lines and say where the rows went."""
    name = "stdin" if str(args.input) == "-" else str(args.input)
    log = logging.getLogger(__name__)
    for line in result.skipped:
        log.warning("%s:%d: skipped: %s", name, line.line, line.reason)
    into = "stdout" if str(args.output) == "-" else args.output
    summary = f"scored {result.rows} triples into {into} ({len(result.skipped)} lines skipped)"
    if str(args.output) == "-":
        log.info(summary)  # stdout holds the table
    else:
        results_console().print(summary)
    return 0


def _score_elsewhere(args: argparse.Namespace) -> int:
    """Score --input on worker processes, GPUs or a Ray cluster: the model loads there, not here."""
    settings = {
        "min_depth": args.min_depth, "chunk_size": args.chunk_size, "skip_invalid": args.skip_invalid,
        "as_given": args.as_given, "explain": args.explain, **load_options(args),
    }  # fmt: skip
    from plausibility.api import score_file

    if args.engine == "ray":
        result = score_file(args.input, args.output, args.model, engine="ray", workers=args.workers, **settings)
    else:
        with _streams(args) as (source, output):
            result = score_file(
                source, output, args.model, workers=args.workers, devices=args.devices, progress=True, **settings
            )
    return _report(args, result)


def run(args: argparse.Namespace) -> int:
    from plausibility.api import load_scorer
    from plausibility.long_lived import loading_long_lived
    from plausibility.query.explain import explains_itself

    _check(args)
    if args.input is not None and (args.workers > 1 or args.devices or args.engine == "ray"):
        return _score_elsewhere(args)
    with loading_long_lived():
        scorer = load_scorer(args.model, min_depth=args.min_depth, **load_options(args))
        if args.input is None:  # one triple's answer reads tables the model loads lazily: part of the load
            return _answer(args, scorer)
    return _score_file(args, scorer, args.explain or explains_itself(scorer.scorer))


def _answer(args: argparse.Namespace, scorer: "Scorer") -> int:
    """One triple's answer: a JSON record, or a table of its fields and the abstractions that explain it."""
    from plausibility.query.explain import explains_itself
    from plausibility.scorers.shipped import describe_model

    explaining = args.explain or explains_itself(scorer.scorer)
    (record,) = scorer.records([args.words], args.as_given, explaining, args.top)
    if args.json:
        print(json.dumps(record, ensure_ascii=False))
        return 0
    explanation, reasons = record.pop("explanation", None), record.pop("reasons", [])
    console = results_console()
    console.print(f"model: {describe_model(scorer.spec)}", highlight=False, soft_wrap=True)
    console.print(f"probability: {scorer.probability_mapping}", highlight=False, soft_wrap=True)
    # One triple: a field per line, so no column is cut to fit the terminal however many the scorer adds.
    table = Table()
    table.add_column("field")
    table.add_column("value")
    for column, value in record.items():
        if column not in scorer.PROVENANCE:  # said above the table
            table.add_row(str(column), f"{value:.4f}" if isinstance(value, float) else str(value))
    console.print(table)
    if explanation is not None:
        best, probability = explanation["best"], explanation["best_probability"]
        console.print(f"explained by: [bold]{best}[/bold] (probability {probability:.4f})")
        for cell in explanation["top"]:
            console.print(f"  {cell['probability']:.4f}  {cell['abstraction']}")
    for reason in reasons:
        console.print(f"less plausible: {reason['reason']} ({reason['log_odds']:+.2f} log-odds)", highlight=False)
    return 0

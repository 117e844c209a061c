"""`plausibility score`: the plausibility of one triple, or of every triple in a table."""

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from plausibility.errors import PlausibilityError
from plausibility.scorers import DEFAULT_SCORER, load_scorer
from plausibility.triple import Triple

_EPILOG = """examples:
  plausibility score person breathe air
  plausibility score dentist breathe helium --model conceptmax:zero-shot --explain
  plausibility score --input triples.tsv --output scores.parquet --model ngram --skip-invalid
"""


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "score",
        help="score the plausibility of a triple or a file of triples",
        description="Score `S V O` (lemmas), or every triple of --input (TSV, CSV, JSONL or Parquet with "
        "subject, verb, object columns; extra columns are kept) into --output.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("words", nargs="*", metavar="S V O", help="subject, verb and object of one event")
    parser.add_argument("--model", default=DEFAULT_SCORER, help=f"scorer SPEC (default: {DEFAULT_SCORER})")
    parser.add_argument("--input", type=Path, help="table of triples to score")
    parser.add_argument("--output", type=Path, help="where to write the scored table (format from its suffix)")
    parser.add_argument("--batch-size", type=int, default=4096, help="triples read and scored at a time")
    parser.add_argument("--skip-invalid", action="store_true", help="skip rows that are not triples (reported)")
    parser.set_defaults(run=run)


def _check(args: argparse.Namespace) -> None:
    if args.input is None and len(args.words) != 3:
        raise PlausibilityError(f"give three words S V O (got {len(args.words)}), or --input FILE --output FILE")
    if args.input is not None and (args.words or args.output is None):
        raise PlausibilityError("with --input give --output FILE and no S V O words")
    if args.batch_size < 1:
        raise PlausibilityError(f"--batch-size must be at least 1, got {args.batch_size}")


def run(args: argparse.Namespace) -> int:
    from plausibility.query.batch import score_table, score_triples

    _check(args)
    scorer = load_scorer(args.model)
    console = Console()
    if args.input is not None:
        result = score_table(
            scorer, args.input, args.output, args.batch_size, args.skip_invalid, progress=sys.stderr.isatty()
        )
        for line in result.skipped:
            print(f"{args.input}:{line.line}: skipped: {line.reason}", file=sys.stderr)
        console.print(f"scored {result.rows} triples into {result.output} ({len(result.skipped)} lines skipped)")
        return 0
    scores = score_triples(scorer, [Triple(*(word.lower() for word in args.words))])
    table = Table(title=f"plausibility ({args.model}; {scorer.probability_mapping})")
    for column in scores.columns:
        table.add_column(column)
    for row in scores.itertuples(index=False):
        table.add_row(*(f"{value:.4f}" if isinstance(value, float) else str(value) for value in row))
    console.print(table)
    return 0

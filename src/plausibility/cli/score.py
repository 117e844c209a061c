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
  plausibility score dentist breathe helium --model conceptmax:zero-shot
  plausibility score --input triples.tsv --output scores.parquet --model ngram --skip-invalid --explain
"""


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "score",
        help="score the plausibility of a triple or a file of triples",
        description="Score `S V O` (lemmas), or every triple of --input (TSV, CSV, JSONL or Parquet with "
        "subject, verb, object columns; extra columns are kept) into --output. Words absent from WordNet "
        "(or unseen in a model's training) are scored and flagged. Each word is one lemma, on the command "
        "line as in files: a multiword noun (ice cream) is rejected. The header is optional and matched in "
        "any case; a UTF-8 byte-order mark is ignored. TSV has no quoting (a \" is a character); CSV has "
        "standard quoting.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "words", nargs="*", metavar="S V O", help="subject, verb and object of one event: one lemma each, as in files"
    )
    parser.add_argument("--model", default=DEFAULT_SCORER, help=f"scorer SPEC (default: {DEFAULT_SCORER})")
    parser.add_argument(
        "--explain",
        action="store_true",
        help="also give the abstraction that scores highest (always on for conceptmax:<SPEC>)",
    )
    parser.add_argument("--top", type=int, default=3, help="abstractions listed by --explain for one triple")
    parser.add_argument("--input", type=Path, help="table of triples to score")
    parser.add_argument("--output", type=Path, help="where to write the scored table (format from its suffix)")
    parser.add_argument("--batch-size", type=int, default=4096, help="triples read and scored at a time")
    parser.add_argument("--skip-invalid", action="store_true", help="skip rows that are not triples (reported)")
    parser.set_defaults(run=run)


def _check(args: argparse.Namespace) -> None:
    from plausibility.query.triple_files import TRIPLE_COLUMNS, triple_problem

    if args.input is None and len(args.words) != 3:
        raise PlausibilityError(f"give three words S V O (got {len(args.words)}), or --input FILE --output FILE")
    if args.input is not None and (args.words or args.output is None):
        raise PlausibilityError("with --input give --output FILE and no S V O words")
    if args.batch_size < 1 or args.top < 1:
        raise PlausibilityError("--batch-size and --top must be at least 1")
    if args.input is None and (problem := triple_problem(dict(zip(TRIPLE_COLUMNS, args.words, strict=True)))):
        raise PlausibilityError(f"{problem}; give one word (a lemma) for each of S V O")


def run(args: argparse.Namespace) -> int:
    from plausibility.query.batch import score_table, score_triples
    from plausibility.query.coverage import coverage_flags
    from plausibility.query.explain import ExplanationColumns, always_explains, explain

    _check(args)
    scorer = load_scorer(args.model)
    explaining = args.explain or always_explains(scorer)
    flags = coverage_flags(scorer)
    console = Console()
    if args.input is not None:
        annotators = [flags, ExplanationColumns(scorer)] if explaining else [flags]
        result = score_table(
            scorer, args.input, args.output, args.batch_size, args.skip_invalid, annotators, sys.stderr.isatty()
        )
        for line in result.skipped:
            print(f"{args.input}:{line.line}: skipped: {line.reason}", file=sys.stderr)
        console.print(f"scored {result.rows} triples into {result.output} ({len(result.skipped)} lines skipped)")
        return 0
    triple = Triple(*(word.strip().lower() for word in args.words))
    scores = score_triples(scorer, [triple]).assign(**flags([triple]))
    # One triple: a field per line, so no column is cut to fit the terminal however many the scorer adds.
    table = Table(title=f"plausibility ({args.model}; probability = {scorer.probability_mapping})")
    table.add_column("field")
    table.add_column("value")
    for column, value in scores.iloc[0].items():
        table.add_row(str(column), f"{value:.4f}" if isinstance(value, float) else str(value))
    console.print(table)
    if explaining:
        explanation = explain(scorer, [triple], top=args.top)[0]
        console.print(f"explained by: [bold]{explanation.best}[/bold] (probability {explanation.best_probability:.4f})")
        for abstraction, probability in explanation.top:
            console.print(f"  {probability:.4f}  {abstraction}")
    return 0

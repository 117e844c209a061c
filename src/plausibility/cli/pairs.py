"""`plausibility pairs`: score a language model (or precomputed scores) on a minimal-pair suite."""

import argparse
import logging
import sys
from importlib.metadata import version
from pathlib import Path

from rich.console import Console

from plausibility.cli.arguments import add_load_options, load_options
from plausibility.errors import PlausibilityError
from plausibility.minimal_pairs.registry import METRICS
from plausibility.minimal_pairs.suite_config import available_suites, load_suite
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM
from plausibility.version import __version__

EPILOG = """examples:
  plausibility pairs lieder --experiment base --output outputs/lieder-base
  plausibility pairs lieder --metric relative --scores my_scores.csv --output outputs/lieder-rel
  plausibility pairs targeted_syntax --limit 50 --dump-scores outputs/syneval/scores.csv --output outputs/syneval
  plausibility pairs blimp --output outputs/blimp
  plausibility pairs blimp --uid adjunct_island,wh_island --output outputs/blimp-islands
  plausibility pairs blimp --field morphology,semantics --limit 100 --output outputs/blimp-sample
  plausibility pairs blimp --device cuda --dtype bfloat16 --batch-size 128 --output outputs/blimp-bf16

A scores file is a CSV `id,logprob` with one row per text the suite scores (LIEDER: the data's `id` field,
e.g. 1_dog_affirmative_negation_sref; other suites: the ids --dump-scores writes). The value is what the
suite compares: log P(continuation | context), a whole text's log-probability, SLOR (anaphora exp3) or the
mean token log-probability (ECBD)."""


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "pairs",
        help="score a language model on a minimal-pair suite (LIEDER, anaphora, targeted syntax, BLiMP...)",
        description="Accuracy per comparison with bootstrapped 95% intervals; writes results.csv, summary.json, "
        "config.yaml and accuracy.png into --output and prints a table.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("suite", metavar="SUITE", help=f"one of {', '.join(available_suites())}, or a suite YAML")
    parser.add_argument("--experiment", help="experiment of the suite (default: the suite's first)")
    parser.add_argument("--lm", default=DEFAULT_CAUSAL_LM, help="language model id or folder (default: %(default)s)")
    parser.add_argument("--kind", choices=("causal", "masked"), help="model kind (default: read from its config)")
    parser.add_argument("--metric", choices=sorted(METRICS), help="comparison metric (default: the suite's)")
    parser.add_argument("--limit", type=int, help="score at most N items per condition (a seeded sample)")
    parser.add_argument("--scores", type=Path, help="CSV id,logprob of precomputed scores instead of a model")
    parser.add_argument("--dump-scores", type=Path, help="write the per-text scores of this run as CSV id,logprob")
    parser.add_argument("--data", type=Path, help="the suite's data file or folder (default: the vendored one)")
    for option, label in (("--uid", "UID"), ("--field", "field")):
        parser.add_argument(
            option, type=_values, action="extend", metavar=label.upper(),
            help=f"only items of these {label}s, comma-separated or repeated (BLiMP; with --uid and --field, both)",
        )  # fmt: skip
    parser.add_argument(
        "--slor-corpus",
        type=Path,
        help="text file for SLOR unigram counts (default: the built-in suites' texts, BLiMP aside)",
    )
    add_load_options(parser, "texts per forward pass (default: 32)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the --limit sample and bootstrap (default: 0)")
    parser.add_argument(
        "--per-group", action="store_true", help="also show every group in the table and the plot (blimp does)"
    )
    parser.add_argument("--output", type=Path, required=True, help="folder for the report files")
    parser.set_defaults(run=run)


def _values(text: str) -> list[str]:
    return [value.strip() for value in text.split(",") if value.strip()]


def run(args: argparse.Namespace) -> int:
    # Scoring and reporting load SciPy and pandas: imported here, so `plausibility --help` and the other
    # commands start without them.
    from plausibility.minimal_pairs.readers import data_sha256
    from plausibility.minimal_pairs.score_table import read_scores, write_scores
    from plausibility.minimal_pairs.suite_report import results_table, write_suite_report
    from plausibility.minimal_pairs.suite_runner import run_suite
    from plausibility.scorers.registry import LM_BATCH_SIZE

    if args.limit is not None and args.limit < 1:
        raise PlausibilityError(f"--limit must be a positive number of items, got {args.limit}")
    options = load_options(args) if args.scores is None else {}  # a missing device fails before any reading
    suite = load_suite(args.suite, args.experiment, args.metric, args.data)
    where = {label: values for label, values in (("UID", args.uid), ("field", args.field)) if values}
    per_group = args.per_group or suite.per_group
    provenance: dict[str, object] = {
        "plausibility_version": __version__,
        "packages": {name: version(name) for name in ("numpy", "scipy", "torch", "transformers")},
        "data": str(suite.data),
        "data_sha256": data_sha256(suite.data) if suite.data and suite.data.exists() else None,
        "where": where,
        "limit": args.limit,
        "seed": args.seed,
    }
    if args.scores is not None:
        result, used = run_suite(suite, scores=read_scores(args.scores), limit=args.limit, seed=args.seed, where=where)
        provenance.update(scores_file=str(args.scores), lm=None)
    else:
        from plausibility.lm import load_lm_scorer

        batch_size = options["batch_size"] or LM_BATCH_SIZE
        scorer = load_lm_scorer(args.lm, args.kind, **{**options, "batch_size": batch_size})
        slor = None
        if suite.score == "slor":
            from plausibility.lm.slor import SLOR, UnigramTable
            from plausibility.minimal_pairs.unigram_corpus import suite_corpus

            corpus = args.slor_corpus or suite_corpus()
            slor = SLOR(scorer, UnigramTable.from_corpus(scorer.tokenizer, corpus)).score
            provenance["slor_corpus"] = str(corpus)
        result, used = run_suite(suite, scorer=scorer, slor=slor, limit=args.limit, seed=args.seed, where=where)
        provenance.update(lm=args.lm, scores_file=None, dtype=args.dtype, batch_size=batch_size)
    write_suite_report(result, suite.resolved, provenance, args.output, per_group)
    if args.dump_scores is not None:
        write_scores(used, args.dump_scores)
    # Wide when piped: a folded comparison name is hard to grep.
    console = Console(width=None if sys.stdout.isatty() else 160)
    console.print(results_table(result, per_group=per_group))
    for role, value in result.mean_scores.items():
        console.print(f"mean score of {role!r} (per {suite.mean_score_by}, then overall): {value:.4f}")
    logging.getLogger(__name__).info("report written to %s", args.output)
    return 0

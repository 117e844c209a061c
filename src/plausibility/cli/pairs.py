"""`plausibility pairs`: score a language model (or precomputed scores) on a minimal-pair suite."""

import argparse
import logging
import sys
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from plausibility.cli.arguments import (
    add_load_options,
    add_old_name,
    add_worker_options,
    check_worker_options,
    load_options,
)
from plausibility.errors import CommandLineError, PlausibilityError
from plausibility.lm.protocol import DEFAULT_PLL, PLL_METRICS
from plausibility.minimal_pairs.registry import METRICS
from plausibility.minimal_pairs.suite_config import available_suites, load_suite
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM
from plausibility.version import __version__

if TYPE_CHECKING:
    from plausibility.api.minimal_pairs import PairsRun
    from plausibility.minimal_pairs.suite_config import SuiteConfig

EPILOG = """examples:
  plausibility pairs lieder --experiment base --output outputs/lieder-base
  plausibility pairs lieder --metric relative --scores my_scores.csv --output outputs/lieder-rel
  plausibility pairs targeted_syntax --limit 50 --dump-scores outputs/syneval/scores.csv --output outputs/syneval
  plausibility pairs blimp --output outputs/blimp
  plausibility pairs blimp --uid adjunct_island,wh_island --output outputs/blimp-islands
  plausibility pairs blimp --field morphology,semantics --limit 100 --output outputs/blimp-sample
  plausibility pairs blimp --device cuda --dtype bfloat16 --batch-size 128 --output outputs/blimp-bf16
  plausibility pairs blimp --workers 2 --output outputs/blimp
  plausibility pairs blimp --device cuda --devices 4 --output outputs/blimp
  plausibility pairs blimp --model gpt2,EleutherAI/pythia-160m --limit 50 --output outputs/blimp-two-lms
  plausibility pairs blimp --model roberta-base --pll original --output outputs/blimp-roberta-original
  plausibility pairs lieder --unit word --dump-tokens outputs/lieder/words.csv --output outputs/lieder-words

A scores file is a CSV `id,logprob` with one row per text the suite scores (LIEDER: the data's `id` field,
e.g. 1_dog_affirmative_negation_sref; other suites: the ids --dump-scores writes). The value is what the
suite compares: log P(continuation | context), a whole text's log-probability, SLOR (anaphora exp3) or the
mean token log-probability (ECBD).

--unit word scores a text by its words between spaces: a causal LM's word probabilities carry the
beginning-of-word correction (Pimentel & Meister 2024) unless --no-bow-correction, and a mean (ECBD) is
per word. A masked LM scores by pseudo-log-likelihood, each token masked with the later pieces of its word
(--pll word-l2r, Kauf & Ivanova 2023) or alone (--pll original, Salazar et al. 2020)."""


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
    parser.add_argument(
        "--model", type=_values, action="extend", metavar="LM", dest="models",
        help=f"language model id or folder; several, comma-separated or repeated, are scored on the same items "
        f"into one report (default: {DEFAULT_CAUSAL_LM})",
    )  # fmt: skip
    add_old_name(parser, "--lm", "--model", "models", type=_values, extend=True)
    parser.add_argument("--kind", choices=("causal", "masked"), help="model kind (default: read from its config)")
    parser.add_argument(
        "--pll", choices=PLL_METRICS,
        help=f"a masked LM's pseudo-log-likelihood: word-l2r masks a token with the later pieces of its word, "
        f"original masks it alone (default: {DEFAULT_PLL})",
    )  # fmt: skip
    parser.add_argument(
        "--unit", choices=("token", "word"), default="token",
        help="score texts by their tokens, or by their words between spaces (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--no-bow-correction", dest="bow_correction", action="store_false",
        help="with --unit word, sum a causal LM's word tokens as they are, without the beginning-of-word correction",
    )  # fmt: skip
    parser.add_argument("--metric", choices=sorted(METRICS), help="comparison metric (default: the suite's)")
    parser.add_argument("--limit", type=int, help="score at most N items per condition (a seeded sample)")
    parser.add_argument("--scores", type=Path, help="CSV id,logprob of precomputed scores instead of a model")
    parser.add_argument("--dump-scores", type=Path, help="write the per-text scores of this run as CSV id,logprob")
    parser.add_argument(
        "--dump-tokens", type=Path, metavar="CSV",
        help="write each scored token's (--unit word: word's) value as CSV lm,id,position,piece,logprob",
    )  # fmt: skip
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
    add_worker_options(parser, "the texts 512 at a time")
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
    from plausibility.api.minimal_pairs import pairs
    from plausibility.minimal_pairs.readers import data_sha256
    from plausibility.minimal_pairs.score_table import read_scores, write_scores, write_token_scores
    from plausibility.minimal_pairs.suite_report import results_table, write_suite_report

    _check(args)
    options = load_options(args) if args.scores is None else {}  # a missing device fails before any reading
    suite = load_suite(args.suite, args.experiment, args.metric, args.data)
    where = {label: values for label, values in (("UID", args.uid), ("field", args.field)) if values}
    per_group = args.per_group or suite.per_group
    common: dict[str, object] = {
        "plausibility_version": __version__,
        "packages": {name: version(name) for name in ("numpy", "scipy", "torch", "transformers")},
        "data": str(suite.data),
        "data_sha256": data_sha256(suite.data) if suite.data and suite.data.exists() else None,
        "where": where,
        "limit": args.limit,
        "seed": args.seed,
    }
    runs, provenance, scored = {}, {}, {}
    if args.scores is not None:
        label = str(args.scores)
        run = pairs(suite, scores=read_scores(args.scores), limit=args.limit, seed=args.seed, where=where)
        runs[label], scored[label] = run.result, run.scores
        provenance[label] = {**common, "scores_file": label, "lm": None}
    else:
        for lm in args.models or [DEFAULT_CAUSAL_LM]:
            run = _score_with(lm, suite, args, options, where)
            runs[lm], scored[lm] = run.result, run.scores
            provenance[lm] = {**common, "lm": lm, "scores_file": None, **run.facts}
    write_suite_report(runs, suite.resolved, provenance, args.output, per_group)
    if args.dump_scores is not None:
        write_scores(
            {text_id: value for lm in scored for text_id, value in scored[lm].scores.items()}, args.dump_scores
        )
    if args.dump_tokens is not None:
        write_token_scores({lm: scores.pieces for lm, scores in scored.items()}, args.dump_tokens)
    # Wide when piped: a folded comparison name is hard to grep.
    console = Console(width=None if sys.stdout.isatty() else 160)
    console.print(results_table(runs, per_group=per_group))
    for lm, result in runs.items():
        for role, value in result.mean_scores.items():
            of = f" with {lm}" if len(runs) > 1 else ""
            console.print(f"mean score of {role!r}{of} (per {suite.mean_score_by}, then overall): {value:.4f}")
    logging.getLogger(__name__).info("report written to %s", args.output)
    return 0


def _check(args: argparse.Namespace) -> None:
    """Refuse what cannot go together before anything loads."""
    if args.limit is not None and args.limit < 1:
        raise PlausibilityError(f"--limit must be a positive number of items, got {args.limit}")
    if args.scores is not None and (args.models or args.dump_tokens):
        raise PlausibilityError("--scores replaces the language model; drop --model and --dump-tokens, or --scores")
    if args.scores is not None and (args.workers > 1 or args.devices):
        raise CommandLineError("--workers and --devices share out a language model's scoring; drop them with --scores")
    check_worker_options(args)
    if args.dump_scores is not None and args.models and len(args.models) > 1:
        raise PlausibilityError("--dump-scores writes one model's scores; use --dump-tokens with several --model")
    if args.models and len(set(args.models)) < len(args.models):
        raise PlausibilityError(f"--model names a model twice ({', '.join(args.models)}); name each once")


def _score_with(lm: str, suite: "SuiteConfig", args: argparse.Namespace, options: dict, where: dict) -> "PairsRun":
    """One language model's run on the suite (`plausibility.api.minimal_pairs`)."""
    from plausibility.api.minimal_pairs import pairs
    from plausibility.lm.loading import guess_kind

    pll = args.pll
    if pll is not None and (args.kind or guess_kind(lm)) == "causal":
        if len(args.models or []) < 2:  # beside masked LMs, --pll is theirs
            raise PlausibilityError(f"--pll is for masked LMs and {lm} is causal; drop --pll")
        pll = None
    return pairs(
        suite, lm, kind=args.kind, pll=pll, unit=args.unit, bow_correction=args.bow_correction,
        keep_pieces=args.dump_tokens is not None, slor_corpus=args.slor_corpus, limit=args.limit, seed=args.seed,
        where=where, workers=args.workers, devices=args.devices, **options,
    )  # fmt: skip

"""Running a suite end to end: read its items, score them (or read scores), evaluate every comparison."""

import inspect
from collections.abc import Mapping

import numpy as np

from plausibility.errors import PlausibilityError
from plausibility.minimal_pairs.config import SuiteConfig, SuiteConfigError
from plausibility.minimal_pairs.evaluate import SuiteResult, evaluate, limit_items, suite_texts
from plausibility.minimal_pairs.items import Item
from plausibility.minimal_pairs.readers import get_reader
from plausibility.minimal_pairs.text_scores import SlorFunction, score_texts
from plausibility.scoring.protocols import LanguageModelScorer


def load_items(suite: SuiteConfig, limit: int | None = None, rng: np.random.Generator | None = None) -> list[Item]:
    """The suite's items from its data file; with `limit`, a seeded sample of that many per `limit_by` group."""
    if suite.data is None:
        raise SuiteConfigError(f"suite {suite.name} has no data file; give one with --data PATH")
    reader = get_reader(suite.reader)
    try:
        inspect.signature(reader).bind(suite.data, **suite.reader_options)
    except TypeError as error:
        raise SuiteConfigError(
            f"suite {suite.name}: bad reader_options for reader {suite.reader!r} ({error})"
        ) from None
    items = reader(suite.data, **suite.reader_options)
    if limit is not None:
        if rng is None:
            raise ValueError("a limited sample needs an rng")
        items = limit_items(items, limit, suite.limit_by, rng)
    return items


def run_suite(
    suite: SuiteConfig,
    *,
    scorer: LanguageModelScorer | None = None,
    scores: Mapping[str, float] | None = None,
    slor: SlorFunction | None = None,
    limit: int | None = None,
    seed: int = 0,
) -> tuple[SuiteResult, dict[str, float]]:
    """Evaluate one suite experiment from a language model or from precomputed per-text scores.

    Returns the result and the scores of the texts it used (what `--dump-scores` writes). One seeded
    generator draws the `--limit` sample, then every bootstrap resample.
    """
    if (scorer is None) == (scores is None):
        raise PlausibilityError("give either a language model or a scores file, not both or neither")
    rng = np.random.default_rng(seed)
    items = load_items(suite, limit, rng)
    texts = suite_texts(items)
    if scorer is not None:
        used = score_texts(texts, scorer, suite.score, slor)
    else:
        used = {text.id: scores[text.id] for text in texts if text.id in scores}
    return evaluate(suite, items, used, rng), used

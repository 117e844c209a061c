"""Running a suite end to end: read its items, score them (or read scores), evaluate every comparison."""

import inspect
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from plausibility.errors import DataFormatError, PlausibilityError, UnknownNameError
from plausibility.lm.protocol import LanguageModelScorer
from plausibility.minimal_pairs.evaluate import SuiteResult, check_labels, evaluate, limit_items, suite_texts
from plausibility.minimal_pairs.items import Item, Text
from plausibility.minimal_pairs.readers import check_unique, data_files, get_reader
from plausibility.minimal_pairs.suite_config import SuiteConfig, SuiteConfigError
from plausibility.minimal_pairs.text_scores import SlorFunction, TextScores, Unit, score_texts

if TYPE_CHECKING:
    from plausibility.workers import WorkerPool


def select_items(items: Sequence[Item], where: Mapping[str, Collection[str]]) -> list[Item]:
    """The items whose every label named in `where` has one of the values given for it (BLiMP's `--uid`).

    A value no item carries fails with the values present, so a typo cannot select nothing.
    """
    check_labels(items, where, "the selection")
    for label, values in where.items():
        present = {item.labels[label] for item in items if label in item.labels}
        for value in values:
            if value not in present:
                raise UnknownNameError(label, value, sorted(present))
    selected = [item for item in items if all(item.labels.get(label) in values for label, values in where.items())]
    if not selected:
        wanted = "; ".join(f"{label} in {', '.join(values)}" for label, values in where.items())
        raise DataFormatError(f"no item has {wanted} at once; select values that occur together")
    return selected


def load_items(
    suite: SuiteConfig,
    limit: int | None = None,
    rng: np.random.Generator | None = None,
    where: Mapping[str, Collection[str]] | None = None,
) -> list[Item]:
    """The suite's items from its data file (or every JSON-lines file of its data folder), those `where`
    selects (label -> values kept), and with `limit` a seeded sample of that many per `limit_by` group."""
    if suite.data is None:
        raise SuiteConfigError(f"suite {suite.name} has no data file; give one with --data PATH")
    reader = get_reader(suite.reader)
    try:
        inspect.signature(reader).bind(suite.data, **suite.reader_options)
    except TypeError as error:
        raise SuiteConfigError(
            f"suite {suite.name}: bad reader_options for reader {suite.reader!r} ({error})"
        ) from None
    files = data_files(suite.data)
    items = [item for file in files for item in reader(file, **suite.reader_options)]
    if len(files) > 1:
        check_unique(items, suite.data)
    if where:
        items = select_items(items, where)
    if limit is not None:
        if rng is None:
            raise ValueError("a limited sample needs an rng")
        items = limit_items(items, limit, suite.limit_by, rng)
    return items


def run_suite(
    suite: SuiteConfig,
    *,
    scorer: LanguageModelScorer | None = None,
    scores: Mapping[str, float] | TextScores | None = None,
    slor: SlorFunction | None = None,
    limit: int | None = None,
    seed: int = 0,
    where: Mapping[str, Collection[str]] | None = None,
    unit: Unit = "token",
    bow_correction: bool = True,
    keep_pieces: bool = False,
    pool: "WorkerPool[list[Text], TextScores] | None" = None,
) -> tuple[SuiteResult, TextScores]:
    """Evaluate one suite experiment from a language model or from precomputed per-text scores.

    Returns the result and the scores of the texts it used (what `--dump-scores` writes; with `keep_pieces`,
    each text's per-token or per-word values too, what `--dump-tokens` writes). One seeded generator draws
    the `--limit` sample, then every bootstrap resample; `where` selects items by label; `unit` and
    `bow_correction` are `score_texts`'. `scores` may be the `TextScores` an earlier run returned, so one
    scoring serves several metrics of the same suite. A `pool` of `TextWorker`s scores in place of `scorer`.
    """
    if (scorer is None and pool is None) == (scores is None):
        raise PlausibilityError("give either a language model or a scores file, not both or neither")
    rng = np.random.default_rng(seed)
    items = load_items(suite, limit, rng, where)
    texts = suite_texts(items)
    if scores is None:
        used = score_texts(texts, scorer, suite.score, slor, unit, bow_correction, keep_pieces, pool)
    else:
        given = scores.scores if isinstance(scores, TextScores) else scores
        used = TextScores({text.id: given[text.id] for text in texts if text.id in given})  # type: ignore[union-attr]
    return evaluate(suite, items, used.scores, rng), used

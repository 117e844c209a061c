"""Scores of a suite's texts from a language model, in the form the suite's comparisons use."""

from collections.abc import Callable, Sequence

import numpy as np

from plausibility.errors import PlausibilityError
from plausibility.lm.protocol import LanguageModelScorer
from plausibility.minimal_pairs.items import Text
from plausibility.minimal_pairs.suite_config import ScoreKind
from plausibility.progress import progress_bar

SlorFunction = Callable[[Sequence[str]], np.ndarray]


# Texts per call to the scorer, so the bar moves; the scorer still batches within a call as it likes.
_CHUNK = 512


def score_texts(
    texts: Sequence[Text], scorer: LanguageModelScorer, kind: ScoreKind, slor: SlorFunction | None = None
) -> dict[str, float]:
    """Text id -> score: summed (`conditional`) or mean (`conditional_mean`) `log P(continuation | context)`,
    whole-text log-probability (`text`), or SLOR of the whole text (`slor`, needs `slor`)."""
    if kind == "slor" and slor is None:
        raise PlausibilityError("a suite scored by SLOR needs a unigram table; give --slor-corpus or --scores")
    scores: dict[str, float] = {}
    with progress_bar("scoring texts", len(texts), "texts") as advance:
        for start in range(0, len(texts), _CHUNK):
            chunk = texts[start : start + _CHUNK]
            scores.update(_chunk_scores(chunk, scorer, kind, slor))
            advance(len(chunk))
    return scores


def _chunk_scores(
    texts: Sequence[Text], scorer: LanguageModelScorer, kind: ScoreKind, slor: SlorFunction | None
) -> dict[str, float]:
    if kind in ("conditional", "conditional_mean"):
        values = scorer.conditional_logprob(
            [text.context for text in texts],
            [text.continuation for text in texts],
            reduction="sum" if kind == "conditional" else "mean",
        )
    elif kind == "text":
        values = scorer.text_logprob([text.full for text in texts], reduction="sum")
    else:
        values = slor([text.full for text in texts])
    return {text.id: float(value) for text, value in zip(texts, values, strict=True)}

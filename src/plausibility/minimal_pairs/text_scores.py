"""Scores of a suite's texts from a language model, in the form the suite's comparisons use, and the per-token
(or per-word) values they are made of, for a user to see why a pair went one way."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from plausibility.errors import PlausibilityError
from plausibility.lm.protocol import LanguageModelScorer
from plausibility.minimal_pairs.items import Text
from plausibility.minimal_pairs.suite_config import ScoreKind
from plausibility.progress import progress_bar

SlorFunction = Callable[[Sequence[str]], np.ndarray]
# What a text's score is summed (or averaged) over: its tokens, or its words between spaces.
Unit = Literal["token", "word"]

# Texts per call to the scorer, so the bar moves; the scorer still batches within a call as it likes.
_CHUNK = 512


@dataclass
class TextScores:
    """Text id -> score, and with `pieces` kept, text id -> each token's (or word's) text and value."""

    scores: dict[str, float] = field(default_factory=dict)
    pieces: dict[str, list[tuple[str, float]]] = field(default_factory=dict)


def score_texts(
    texts: Sequence[Text],
    scorer: LanguageModelScorer,
    kind: ScoreKind,
    slor: SlorFunction | None = None,
    unit: Unit = "token",
    bow_correction: bool = True,
    keep_pieces: bool = False,
) -> TextScores:
    """Each text's score: summed (`conditional`) or mean (`conditional_mean`) `log P(continuation | context)`,
    whole-text log-probability (`text`), or SLOR of the whole text (`slor`, needs `slor`).

    With `unit="word"` a text is scored by its words (a causal LM's with the beginning-of-word correction
    unless `bow_correction` is off), and a mean is over words; `keep_pieces` keeps every token's (or word's)
    value beside the score.
    """
    if kind == "slor" and slor is None:
        raise PlausibilityError("a suite scored by SLOR needs a unigram table; give --slor-corpus or --scores")
    if kind == "slor" and (unit == "word" or keep_pieces):
        raise PlausibilityError("SLOR is a score per token of a whole text; drop --unit word and --dump-tokens")
    result = TextScores()
    with progress_bar("scoring texts", len(texts), "texts") as advance:
        for start in range(0, len(texts), _CHUNK):
            chunk = texts[start : start + _CHUNK]
            if kind == "slor":
                values = slor([text.full for text in chunk])  # type: ignore[misc]
                result.scores.update((text.id, float(value)) for text, value in zip(chunk, values, strict=True))
            else:
                _score_chunk(chunk, scorer, kind, unit, bow_correction, keep_pieces, result)
            advance(len(chunk))
    return result


def _score_chunk(
    texts: Sequence[Text],
    scorer: LanguageModelScorer,
    kind: ScoreKind,
    unit: Unit,
    bow_correction: bool,
    keep_pieces: bool,
    into: TextScores,
) -> None:
    # A whole text is a continuation of nothing: one code path, whatever the suite compares.
    contexts = ["" if kind == "text" else text.context for text in texts]
    continuations = [text.full if kind == "text" else text.continuation for text in texts]
    if unit == "word":
        words = scorer.conditional_word_logprobs(contexts, continuations, bow_correction=bow_correction)
        values = [scores.logprobs for scores in words]
        names = [list(scores.words) for scores in words]
    else:
        values = scorer.conditional_token_logprobs(contexts, continuations)
        names = scorer.conditional_token_pieces(contexts, continuations) if keep_pieces else []
    for index, (text, text_values) in enumerate(zip(texts, values, strict=True)):
        reduced = text_values.mean() if kind == "conditional_mean" else text_values.sum()
        into.scores[text.id] = float(reduced)
        if keep_pieces:
            into.pieces[text.id] = list(zip(names[index], text_values.tolist(), strict=True))

"""Scores of a suite's texts from a language model, in the form the suite's comparisons use, and the per-token
(or per-word) values they are made of, for a user to see why a pair went one way."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from plausibility.devices import DType
from plausibility.errors import PlausibilityError
from plausibility.lm.protocol import LanguageModelScorer, MaskedLanguageModel
from plausibility.minimal_pairs.items import Text
from plausibility.minimal_pairs.suite_config import ScoreKind
from plausibility.progress import progress_bar

if TYPE_CHECKING:
    from plausibility.workers import WorkerPool

SlorFunction = Callable[[Sequence[str]], np.ndarray]
# What a text's score is summed (or averaged) over: its tokens, or its words between spaces.
Unit = Literal["token", "word"]

# Texts per call to the scorer, so the bar moves; the scorer still batches within a call as it likes. Also the
# unit workers share out: a fixed number, so no score depends on how many workers there are.
_CHUNK = 512


@dataclass
class TextScores:
    """Text id -> score, and with `pieces` kept, text id -> each token's (or word's) text and value."""

    scores: dict[str, float] = field(default_factory=dict)
    pieces: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    facts: dict[str, object] = field(default_factory=dict)  # how the LM scored, for the report (`_facts`)


def score_texts(
    texts: Sequence[Text],
    scorer: LanguageModelScorer | None,
    kind: ScoreKind,
    slor: SlorFunction | None = None,
    unit: Unit = "token",
    bow_correction: bool = True,
    keep_pieces: bool = False,
    pool: "WorkerPool[list[Text], TextScores] | None" = None,
    progress: bool = True,
) -> TextScores:
    """Each text's score: summed (`conditional`) or mean (`conditional_mean`) `log P(continuation | context)`,
    whole-text log-probability (`text`), or SLOR of the whole text (`slor`, needs `slor`).

    With `unit="word"` a text is scored by its words (a causal LM's with the beginning-of-word correction
    unless `bow_correction` is off), and a mean is over words; `keep_pieces` keeps every token's (or word's)
    value beside the score. With `pool` (workers built by `TextWorker`s with these settings), the chunks
    are scored on the workers instead of by `scorer` here: the same chunks, so the same scores up to the
    float rounding of each worker's share of the cores.
    """
    if kind == "slor" and slor is None and pool is None:
        raise PlausibilityError("a suite scored by SLOR needs a unigram table; give --slor-corpus or --scores")
    if kind == "slor" and (unit == "word" or keep_pieces):
        raise PlausibilityError("SLOR is a score per token of a whole text; drop --unit word and --dump-tokens")
    result = TextScores()
    chunks = [list(texts[start : start + _CHUNK]) for start in range(0, len(texts), _CHUNK)]
    with progress_bar("scoring texts", len(texts), "texts", wanted=progress) as advance:
        if pool is not None:
            size = 2 * pool.size  # chunks between two moves of the bar: two for each worker
            for first in range(0, len(chunks), size):
                wave = chunks[first : first + size]
                for scored in pool.map(wave):
                    result.scores.update(scored.scores)
                    result.pieces.update(scored.pieces)
                    result.facts = result.facts or scored.facts
                advance(sum(len(chunk) for chunk in wave))
            return result
        assert scorer is not None, "score_texts needs a scorer or a pool"
        result.facts = _facts(scorer, unit, bow_correction)
        for chunk in chunks:
            if kind == "slor":
                values = slor([text.full for text in chunk])  # type: ignore[misc]
                result.scores.update((text.id, float(value)) for text, value in zip(chunk, values, strict=True))
            else:
                _score_chunk(chunk, scorer, kind, unit, bow_correction, keep_pieces, result)
            advance(len(chunk))
    return result


def _facts(scorer: LanguageModelScorer, unit: Unit, bow_correction: bool) -> dict[str, object]:
    """How the scorer scored: a masked LM's pseudo-log-likelihood, and whether the BOW correction applied
    (only where it means something: a causal LM's words, with a tokenizer that marks word starts)."""
    return {
        "pll": scorer.pll if isinstance(scorer, MaskedLanguageModel) else None,
        "bow_correction": unit == "word" and bow_correction and getattr(scorer, "word_start_ids", None) is not None,
    }


@dataclass(frozen=True)
class TextWorker:
    """What a worker process builds its scoring of chunks from: the LM's name and options and the suite's
    scoring settings, never a loaded model. Called in the worker, it loads the LM (and for SLOR counts the
    corpus's unigrams with its tokenizer, once, into the cache) and gives the function that scores a chunk."""

    lm: str
    kind: Literal["causal", "masked"] | None
    device: str | None
    dtype: DType
    batch_size: int
    pll: str | None
    score: ScoreKind
    unit: Unit
    bow_correction: bool
    keep_pieces: bool
    slor_corpus: Path | None

    def __call__(self) -> Callable[[list[Text]], TextScores]:
        from plausibility.lm import load_lm_scorer

        scorer = load_lm_scorer(self.lm, self.kind, self.batch_size, self.device, self.dtype, self.pll)
        slor = None
        if self.score == "slor":
            from plausibility.lm.slor import SLOR, UnigramTable

            table = UnigramTable.from_corpus(scorer.tokenizer, self.slor_corpus)  # type: ignore[attr-defined, arg-type]
            slor = SLOR(scorer, table).score
        settings = (self.score, slor, self.unit, self.bow_correction, self.keep_pieces)
        return lambda chunk: score_texts(chunk, scorer, *settings, progress=False)


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

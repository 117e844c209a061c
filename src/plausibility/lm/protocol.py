"""`LanguageModelScorer`: the contract every language model over text keeps, causal or masked."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Protocol, get_args, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from plausibility.lm.words import WordScores

Reduction = Literal["sum", "mean"]
# How a masked LM masks a token it scores: alone (`original`, Salazar et al. 2020), or with the later pieces of
# its word too (`word-l2r`, Kauf & Ivanova 2023), so a word of several pieces cannot read itself off its pieces.
PLLMetric = Literal["original", "word-l2r"]
PLL_METRICS: tuple[str, ...] = get_args(PLLMetric)
DEFAULT_PLL: PLLMetric = "word-l2r"


@runtime_checkable
class LanguageModelScorer(Protocol):
    """Log-probabilities of texts under a language model, in natural log.

    Contexts and continuations are joined with one space (`context + " " + continuation`) and tokenised
    once; only the continuation's tokens are scored, chosen by character offsets: every token that
    overlaps the joining space or the continuation (so " The", which carries the space, is the
    continuation's). An empty context scores the continuation as a whole text (from the
    beginning-of-sequence token). Outputs follow input order, as float64 arrays.
    """

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per-token log-probabilities of each whole text (every token scored)."""
        ...

    def text_logprob(self, texts: Sequence[str], reduction: Reduction = "sum") -> np.ndarray:
        """Log-probability of each whole text, reduced over its tokens."""
        ...

    def conditional_logprob(
        self, contexts: Sequence[str], continuations: Sequence[str], reduction: Reduction = "sum"
    ) -> np.ndarray:
        """`log P(continuation | context)` for each aligned pair, reduced over the continuation's tokens."""
        ...

    def conditional_token_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " "
    ) -> list[np.ndarray]:
        """Per-token log-probabilities of each continuation after its context (every token of a whole text)."""
        ...

    def conditional_token_pieces(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " "
    ) -> list[list[str]]:
        """The text of each token `conditional_token_logprobs` scores, aligned with its values."""
        ...

    def conditional_word_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " ", bow_correction: bool = True
    ) -> "list[WordScores]":
        """Log-probability of each space-delimited word of each continuation (`bow_correction`: of a causal LM's
        words as words, see `CausalLMScorer.conditional_word_logprobs`)."""
        ...


@runtime_checkable
class MaskedLanguageModel(LanguageModelScorer, Protocol):
    """A masked LM: it can score a span with other spans of the same text masked at once."""

    def masked_logprobs(
        self,
        texts: Sequence[str],
        masked_spans: Sequence[Sequence[tuple[int, int]]],
        scored_spans: Sequence[tuple[int, int]],
    ) -> list[np.ndarray]:
        """Log-probabilities of the tokens of each text's scored span, its masked spans masked in one pass."""
        ...

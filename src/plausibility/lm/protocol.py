"""`LanguageModelScorer`: the contract every language model over text keeps, causal or masked."""

from collections.abc import Sequence
from typing import Literal, Protocol, runtime_checkable

import numpy as np

Reduction = Literal["sum", "mean"]


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

"""What the causal and masked scorers share: a model held for scoring, and texts scored from per-token values."""

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Self, get_args

import numpy as np
import torch

from plausibility.devices import DType, resolve_device, resolve_dtype
from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.lm.measures import Measure
from plausibility.lm.minicons_api import MiniconsNames
from plausibility.lm.protocol import Reduction
from plausibility.lm.tokens import check_texts, continuation_tokens, require_fast
from plausibility.lm.words import WordScores

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase


def _reducer(reduction: str) -> Callable[[Sequence[np.ndarray]], np.ndarray]:
    """What reduces each text's token log-probabilities to one float64, in input order: their sum or their mean.
    An unknown name fails before anything is scored."""
    if reduction not in get_args(Reduction):
        raise UnknownNameError("reduction", reduction, get_args(Reduction))
    reduce = np.sum if reduction == "sum" else np.mean
    return lambda values: np.array([reduce(v, dtype=np.float64) for v in values], dtype=np.float64)


class TokenScorer(MiniconsNames, ABC):
    """A `LanguageModelScorer` built on per-token verbs, which a subclass provides.

    `token_logprobs(texts)` and `conditional_token_logprobs(contexts, continuations, separator)` give one
    array per text; `text_logprob` and `conditional_logprob` reduce them, and `MiniconsNames` adds
    minicons' names over them, `token_ranks` and `token_names`.
    """

    tokenizer: "PreTrainedTokenizerBase"
    model: "PreTrainedModel"
    device: torch.device
    batch_size: int

    @classmethod
    def from_model(
        cls,
        model: "PreTrainedModel",
        tokenizer: "PreTrainedTokenizerBase",
        batch_size: int = 32,
        device: str | None = None,
        dtype: DType | None = None,
    ) -> Self:
        """Wrap a model object already in memory (e.g. a small model built from a config).

        The model stays on its device and in its dtype unless `device` or `dtype` is given.
        """
        scorer = cls.__new__(cls)
        placed = resolve_device(device) if device else model.device
        scorer._attach(model, tokenizer, batch_size, placed, resolve_dtype(dtype) if dtype else None)
        return scorer

    def _attach(
        self,
        model: "PreTrainedModel",
        tokenizer: "PreTrainedTokenizerBase",
        batch_size: int,
        device: torch.device,
        dtype: torch.dtype | None,
    ) -> None:
        """Check and hold the model (in eval mode, on `device`, cast to `dtype`) and its tokenizer, then `_setup`."""
        require_fast(tokenizer)
        if batch_size < 1:
            raise DataFormatError(f"batch_size must be at least 1, got {batch_size}")
        self.tokenizer = tokenizer
        self.batch_size = batch_size
        self.device = device
        self.model = model.to(device=device, dtype=dtype).eval()
        self._setup()

    @abstractmethod
    def _setup(self) -> None:
        """What this kind of scorer needs of its model and tokenizer, checked once both are held."""

    def _measure(self, requests: Sequence[Hashable], measure: Measure) -> list[np.ndarray]:
        """`measure` at each request's scored tokens, one array per request, in input order; each distinct request
        (its token ids and what is scored) runs once.

        Texts that tokenise alike (two spellings of one token sequence, a minimal pair whose words are all
        unknown to the vocabulary) therefore get equal values: a tie stays a tie, whatever batch each would have
        fallen in, instead of being broken by the float rounding of batches padded differently.
        """
        distinct = list(dict.fromkeys(requests))
        if len(distinct) == len(requests):
            return self._measure_distinct(requests, measure)
        values = dict(zip(distinct, self._measure_distinct(distinct, measure), strict=True))
        return [values[request].copy() for request in requests]

    @abstractmethod
    def _measure_distinct(self, requests: Sequence, measure: Measure) -> list[np.ndarray]:
        """`_measure` over requests that are all distinct."""

    @abstractmethod
    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per-token log-probabilities of each whole text (float64, one array per text, input order)."""

    @abstractmethod
    def conditional_token_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " "
    ) -> list[np.ndarray]:
        """Per-token log-probabilities of each continuation after its context and `separator`, one array per pair."""

    @abstractmethod
    def token_ranks(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Rank of every scored token of each text in the model's prediction (1 = most probable)."""

    @abstractmethod
    def token_names(self, texts: Sequence[str]) -> list[list[str]]:
        """Each text's tokens as strings, in minicons' layout (unscored leading tokens first)."""

    @abstractmethod
    def conditional_word_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " ", bow_correction: bool = True
    ) -> list[WordScores]:
        """Log-probability of each word of each continuation after its context (a whole text after an empty one)."""

    def word_logprobs(self, texts: Sequence[str], bow_correction: bool = True) -> list[WordScores]:
        """Log-probability of each (space-delimited) word of each whole text, input order."""
        check_texts(texts)
        return self.conditional_word_logprobs([""] * len(texts), texts, bow_correction=bow_correction)

    def conditional_token_pieces(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " "
    ) -> list[list[str]]:
        """The continuation's scored tokens as text (" dog" with its space), aligned with the per-token values."""
        return [
            [self.tokenizer.decode([tokens.ids[position]]) for position in covered]
            for tokens, covered in continuation_tokens(self.tokenizer, contexts, continuations, separator)
        ]

    def text_logprob(self, texts: Sequence[str], reduction: Reduction = "sum") -> np.ndarray:
        """Log-probability of each whole text, summed (or averaged) over its tokens."""
        reduce = _reducer(reduction)
        return reduce(self.token_logprobs(texts))

    def conditional_logprob(
        self, contexts: Sequence[str], continuations: Sequence[str], reduction: Reduction = "sum"
    ) -> np.ndarray:
        """`log P(continuation | context)` for each aligned pair, over the continuation's tokens only."""
        reduce = _reducer(reduction)
        return reduce(self.conditional_token_logprobs(contexts, continuations))

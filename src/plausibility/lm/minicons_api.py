"""minicons' scoring names (`sequence_score`, `conditional_score`, `token_score`) on our language-model scorers.

A script written against minicons' `IncrementalLMScorer` or `MaskedLMScorer` ports by building our
`CausalLMScorer` or `MaskedLMScorer` instead (`from_model(model, tokenizer)` takes the same model
object) and keeping its scoring calls: the names, argument defaults, reductions (a callable on each
text's per-token float32 tensor, by default the mean log-probability) and return types are minicons'.
The scores are ours, with two deliberate differences:

- a causal scorer always prepends its start token (`<|endoftext|>` where the vocabulary has it) and
  scores every token of the text, which is minicons' `bos_token=True` with that token as BOS; minicons'
  default (`bos_token=False`) leaves the first token unscored. `token_score` lists the start token first
  with score 0.0, as minicons does with `bos_token=True`.
- a continuation's tokens are chosen by character offsets (those reaching into the separator or the
  continuation), not by counting the prefix's own tokens; the two agree whenever tokenising the prefix
  alone gives the first tokens of the joined text. An empty prefix scores the stimulus as a whole text.

- `word_score` scores the words between spaces ("dog." is one word) and applies the beginning-of-word
  correction by default (`bow_correction=True`; minicons' default is False), so a causal LM's word
  scores are word probabilities; minicons splits punctuation off and falls back to token scores when
  its words do not line up with the tokens.
- a masked scorer's PLL metric is chosen when it is built (`MaskedLMScorer(..., pll="word-l2r")`, the
  default, minicons' `within_word_l2r`; or `"original"`), not per call.

Not carried over: `bos_token`/`eos_token` and the masked scorer's `suffix`.
"""

import math
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import torch

from plausibility.errors import DataFormatError
from plausibility.lm.words import WordScores

Batch = str | Sequence[str]
TokenScores = list[tuple[str, float]] | list[tuple[str, float, int]]


def mean_logprob(values: torch.Tensor) -> float:
    """minicons' default reduction: the mean of a text's per-token scores."""
    return values.mean(0).item()


class _TokenScorer(Protocol):
    """What the minicons names are built on: per-token log-probabilities, ranks and token strings."""

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]: ...

    def conditional_token_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " "
    ) -> list[np.ndarray]: ...

    def token_ranks(self, texts: Sequence[str]) -> list[np.ndarray]: ...

    def token_names(self, texts: Sequence[str]) -> list[list[str]]: ...

    def word_logprobs(self, texts: Sequence[str], bow_correction: bool = True) -> list[WordScores]: ...


def _texts(batch: Batch) -> list[str]:
    """One text or several, as minicons takes them."""
    return [batch] if isinstance(batch, str) else list(batch)


def _transformed(values: np.ndarray, prob: bool, base_two: bool, surprisal: bool = False) -> torch.Tensor:
    """Natural-log probabilities as minicons reports them: float32, in bits, as probabilities or negated."""
    if prob and (base_two or surprisal):
        raise DataFormatError(
            "prob=True returns probabilities, which have no base and no surprisal; "
            "drop base_two=True and surprisal=True, or prob=True"
        )
    scores = torch.from_numpy(np.asarray(values, dtype=np.float32))
    if base_two:
        scores = scores / math.log(2)
    elif prob:
        scores = scores.exp()
    return -scores if surprisal else scores


class MiniconsNames:
    """minicons' `sequence_score`, `conditional_score` and `token_score` over a scorer's per-token verbs."""

    def sequence_score(
        self: _TokenScorer,
        batch: Batch,
        reduction: Callable[[torch.Tensor], object] = mean_logprob,
        prob: bool = False,
        base_two: bool = False,
    ) -> list:
        """`reduction` of each text's per-token log-probabilities (default: their mean), input order."""
        return [reduction(_transformed(values, prob, base_two)) for values in self.token_logprobs(_texts(batch))]

    def conditional_score(
        self: _TokenScorer,
        prefix: Batch,
        stimuli: Batch,
        separator: str = " ",
        reduction: Callable[[torch.Tensor], object] = mean_logprob,
        prob: bool = False,
        base_two: bool = False,
    ) -> list:
        """`reduction` of each stimulus' token log-probabilities after its prefix and `separator`, input order."""
        values = self.conditional_token_logprobs(_texts(prefix), _texts(stimuli), separator)
        return [reduction(_transformed(scores, prob, base_two)) for scores in values]

    def token_score(
        self: _TokenScorer,
        batch: Batch,
        surprisal: bool = False,
        prob: bool = False,
        base_two: bool = False,
        rank: bool = False,
    ) -> list[TokenScores]:
        """Per text, `(token, score)` for each token (`(token, score, rank)` with `rank=True`).

        Scores are log-probabilities by default (`surprisal`: negated, `prob`: probabilities, `base_two`:
        in bits); a rank is 1 for the model's most probable token. An unscored leading token (a causal
        scorer's start token) gets score 0.0 and rank 0, as in minicons.
        """
        texts = _texts(batch)
        scores = [_transformed(values, prob, base_two, surprisal).tolist() for values in self.token_logprobs(texts)]
        names = self.token_names(texts)
        ranks = [values.tolist() for values in self.token_ranks(texts)] if rank else None
        rows: list[TokenScores] = []
        for index, (tokens, values) in enumerate(zip(names, scores, strict=True)):
            unscored = len(tokens) - len(values)
            padded = [0.0] * unscored + values
            if ranks is None:
                rows.append(list(zip(tokens, padded, strict=True)))
            else:
                rows.append(list(zip(tokens, padded, [0] * unscored + ranks[index], strict=True)))
        return rows

    def word_score(
        self: _TokenScorer,
        batch: Batch,
        surprisal: bool = False,
        prob: bool = False,
        base_two: bool = False,
        bow_correction: bool = True,
    ) -> list[list[tuple[str, float]]]:
        """Per text, `(word, score)` for each word between spaces, a word's score its tokens' log-probabilities
        summed (for a causal LM with `bow_correction`, a word's probability; see `conditional_word_logprobs`)."""
        rows = []
        for scores in self.word_logprobs(_texts(batch), bow_correction):
            values = _transformed(scores.logprobs, prob, base_two, surprisal).tolist()
            rows.append(list(zip(scores.words, values, strict=True)))
        return rows

"""Words for word-level scores: a text's whitespace-delimited words, the tokens each is made of, and the
vocabulary items that begin a word (a tokenizer that marks the space before a word on its first token).

A word is what lies between spaces ("dog." is one word): for a tokenizer that writes the space before a
word into the word's first token, that is the unit whose probability the beginning-of-word correction
makes exact (Pimentel & Meister 2024, "How to Compute the Probability of a Word").
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from plausibility.lm.tokens import TokenisedText, join

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class WordScores:
    """One text's words (as written) and the log-probability of each, natural log, float64."""

    words: tuple[str, ...]
    logprobs: np.ndarray


def word_of_each_token(text: str, tokens: TokenisedText, positions: Sequence[int]) -> tuple[list[str], list[int]]:
    """The words that the tokens at `positions` fall in, and each token's index among those words.

    A token belongs to the first word that ends after the token starts: " dog" (which carries its space) to
    "dog", a lone space token to the word after it, and a token past the last word to the last word.
    """
    spans = [match.span() for match in _WORD.finditer(text)]
    owners = []
    for position in positions:
        start = tokens.offsets[position][0]
        owners.append(next((i for i, (_, end) in enumerate(spans) if end > start), len(spans) - 1))
    kept = sorted(set(owners))
    index = {owner: rank for rank, owner in enumerate(kept)}
    return [text[slice(*spans[owner])] for owner in kept], [index[owner] for owner in owners]


def sum_by_word(values: np.ndarray, words: list[str], word_of_token: list[int]) -> WordScores:
    """Token log-probabilities summed within each word."""
    totals = np.zeros(len(words), dtype=np.float64)
    np.add.at(totals, word_of_token, values)
    return WordScores(tuple(words), totals)


def continuation_words(
    tokenised: Sequence[tuple[TokenisedText, list[int]]],
    token_values: Sequence[np.ndarray],
    contexts: Sequence[str],
    continuations: Sequence[str],
    separator: str,
) -> list[WordScores]:
    """Each continuation's words, the values of their tokens summed (`tokenised` as `continuation_tokens` gives it)."""
    scores = []
    for (tokens, covered), values, context, continuation in zip(
        tokenised, token_values, contexts, continuations, strict=True
    ):
        words, owners = word_of_each_token(join(context, continuation, separator)[0], tokens, covered)
        scores.append(sum_by_word(values, words, owners))
    return scores


def beginning_of_word_ids(tokenizer: "PreTrainedTokenizerBase") -> np.ndarray | None:
    """The ids of every vocabulary item that begins a word, or None when the tokenizer marks no word start.

    The marker is what the tokenizer writes for a lone space ("Ġ" in byte-level BPE, "▁" in SentencePiece);
    every item spelled with it first begins a word, as do added tokens that take the space before them.
    A tokenizer whose space is a special token, or none, marks no start (as minicons decides).
    """
    try:
        space = tokenizer(" ", add_special_tokens=False)["input_ids"]
        marker = tokenizer.convert_ids_to_tokens(space[0])[0]
    except (IndexError, TypeError):
        return None
    if marker in (tokenizer.bos_token, tokenizer.eos_token):
        return None
    starts = {index for item, index in tokenizer.get_vocab().items() if item.startswith(marker)}
    starts |= {index for index, added in tokenizer.added_tokens_decoder.items() if added.lstrip}
    return np.array(sorted(starts), dtype=np.int64) if starts else None


def bow_corrected(rows: np.ndarray, scored: np.ndarray, begins_word: np.ndarray, has_context: bool) -> np.ndarray:
    """Token log-probabilities with the beginning-of-word correction, to be summed within words.

    `rows` holds, per scored token and one position past the last, the true token's log-probability and
    the log-mass on word-starting tokens. A token that ends a word (the next begins one, or it is the
    last) gains the mass after it; a token that begins a word loses the mass before it.
    """
    logprobs, start_mass = rows[:-1, 0], rows[:, 1]
    ends = np.append(begins_word[scored[1:]], True)
    begins = begins_word[scored].copy()
    begins[0] = has_context and begins[0]
    return logprobs + np.where(ends, start_mass[1:], 0.0) - np.where(begins, start_mass[:-1], 0.0)

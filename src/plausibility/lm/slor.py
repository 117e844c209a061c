"""SLOR: a text's log-probability minus its unigram log-probability, per token (Lau et al., 2017)."""

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from plausibility.atomic import atomic_write
from plausibility.checksums import file_sha256
from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.lm.protocol import LanguageModelScorer
from plausibility.lm.tokens import check_texts
from plausibility.resources.paths import cache_dir

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

# Lines tokenised per call while counting a corpus: big enough to use the fast tokenizer's threads,
# small enough to keep memory flat on any corpus size.
_LINES_PER_BATCH = 4096


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def count_tokens(tokenizer: "PreTrainedTokenizerBase", corpus: Path) -> np.ndarray:
    """Occurrences of every token id in a UTF-8 text file, one document per line (int64, `len(tokenizer)`)."""
    counts = np.zeros(len(tokenizer), dtype=np.int64)

    def add(lines: list[str]) -> None:
        ids = np.concatenate(
            [np.asarray(i, dtype=np.int64) for i in tokenizer(lines, add_special_tokens=False)["input_ids"]]
        )
        counts[:] += np.bincount(ids, minlength=len(counts))[: len(counts)]

    batch: list[str] = []
    with corpus.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                batch.append(line.rstrip("\n"))
            if len(batch) == _LINES_PER_BATCH:
                add(batch)
                batch = []
    if batch:
        add(batch)
    return counts


class UnigramTable:
    """Unigram token probabilities under one tokenizer, add-`smoothing` smoothed so unseen tokens keep mass.

    `P(w) = (count(w) + k) / (N + k·V)` with `N` the corpus's token count and `V` the vocabulary size.
    """

    def __init__(self, tokenizer: "PreTrainedTokenizerBase", counts: np.ndarray, smoothing: float = 1.0) -> None:
        if counts.ndim != 1 or len(counts) < len(tokenizer):
            raise DataFormatError(
                f"unigram counts have shape {counts.shape}; give one count per token id ({len(tokenizer)})"
            )
        if smoothing <= 0:
            raise DataFormatError(f"smoothing must be positive (unseen tokens need a probability), got {smoothing}")
        self.tokenizer = tokenizer
        self.counts = counts
        self.smoothing = smoothing
        smoothed = counts.astype(np.float64) + smoothing
        self._logprob = np.log(smoothed) - np.log(smoothed.sum())

    @classmethod
    def from_corpus(cls, tokenizer: "PreTrainedTokenizerBase", corpus: Path, smoothing: float = 1.0) -> "UnigramTable":
        """Count a corpus file's tokens once and cache the counts, keyed by tokenizer and corpus hashes."""
        corpus = Path(corpus)
        if not corpus.is_file():
            raise ResourceMissingError(f"{corpus}: no such corpus file; give a UTF-8 text file, one document a line")
        vocabulary = tokenizer.backend_tokenizer.to_str() if tokenizer.is_fast else repr(sorted(tokenizer.get_vocab()))
        cached = cache_dir() / "unigrams" / f"{_sha256(vocabulary.encode())}-{file_sha256(corpus)[:16]}.npy"
        if cached.is_file():
            return cls(tokenizer, np.load(cached), smoothing)
        counts = count_tokens(tokenizer, corpus)
        if not counts.any():
            raise DataFormatError(f"{corpus}: no tokens to count; the corpus is empty")
        atomic_write(cached, lambda stream: np.save(stream, counts), binary=True)
        return cls(tokenizer, counts, smoothing)

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Unigram log-probability of each token of each text (tokenised without special tokens)."""
        check_texts(texts)
        return [self._logprob[ids] for ids in self.tokenizer(list(texts), add_special_tokens=False)["input_ids"]]


class SLOR:
    """Syntactic log-odds ratio, `(log P_model(s) - Σ_w log P_unigram(w)) / |s|`, with `|s|` in tokens.

    It discounts what a text's length and word frequencies alone predict (Pauls & Klein, 2012; Lau et al.,
    2017). The unigram table must use the language model's tokenizer: a mismatch in token counts fails.
    """

    def __init__(self, lm: LanguageModelScorer, unigrams: UnigramTable) -> None:
        self.lm = lm
        self.unigrams = unigrams

    def score(self, texts: Sequence[str]) -> np.ndarray:
        """SLOR of each text (float64, input order); higher means more acceptable than its words' frequency."""
        model = self.lm.token_logprobs(texts)
        unigram = self.unigrams.token_logprobs(texts)
        scores = np.empty(len(texts), dtype=np.float64)
        for index, (from_model, from_unigrams) in enumerate(zip(model, unigram, strict=True)):
            if len(from_model) != len(from_unigrams):
                raise DataFormatError(
                    f"text {index} ({texts[index]!r}) has {len(from_model)} tokens for the model but "
                    f"{len(from_unigrams)} for the unigram table; count the unigrams with the model's tokenizer"
                )
            scores[index] = (from_model.sum() - from_unigrams.sum()) / len(from_model)
        return scores

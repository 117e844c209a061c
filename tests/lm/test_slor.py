import math
from pathlib import Path

import numpy as np
import pytest

from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.lm.causal import CausalLMScorer
from plausibility.lm.slor import SLOR, UnigramTable


def test_slor_on_a_hand_made_unigram_table(causal_scorer: CausalLMScorer) -> None:
    tokenizer = causal_scorer.tokenizer
    text = "The dog is very cute."
    ids = tokenizer(text).input_ids
    counts = np.zeros(len(tokenizer), dtype=np.int64)
    counts[ids[0]] = 7  # the first token is frequent, the others were never seen
    table = UnigramTable(tokenizer, counts, smoothing=1.0)
    total = 7 + len(tokenizer)  # add-one smoothing over the vocabulary
    unigram = math.log(8 / total) + (len(ids) - 1) * math.log(1 / total)

    model = causal_scorer.text_logprob([text])[0]
    # the same token values (one text, the same batch); only float64 logs and sums of ~50 nats differ, ~1e-14
    assert SLOR(causal_scorer, table).score([text])[0] == pytest.approx((model - unigram) / len(ids), abs=1e-9)


def test_unigram_counts_are_cached_per_tokenizer_and_corpus(
    causal_scorer: CausalLMScorer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    tokenizer = causal_scorer.tokenizer
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("The dog is very cute.\n\nThe dog.\n", encoding="utf-8")
    expected = np.bincount(
        tokenizer("The dog is very cute.").input_ids + tokenizer("The dog.").input_ids, minlength=len(tokenizer)
    )

    table = UnigramTable.from_corpus(tokenizer, corpus)
    np.testing.assert_array_equal(table.counts, expected)
    (cached,) = (tmp_path / "cache" / "unigrams").glob("*.npy")
    np.testing.assert_array_equal(np.load(cached), expected)
    assert not list(cached.parent.glob("tmp*"))  # written atomically: no staging file left

    # A changed corpus has a new hash, so a new table.
    corpus.write_text("The dog.\n", encoding="utf-8")
    assert UnigramTable.from_corpus(tokenizer, corpus).counts.sum() == len(tokenizer("The dog.").input_ids)
    assert len(list(cached.parent.glob("*.npy"))) == 2


def test_bad_unigram_input_fails_clearly(causal_scorer: CausalLMScorer, straddling_tokenizer, tmp_path: Path) -> None:
    tokenizer = causal_scorer.tokenizer
    with pytest.raises(ResourceMissingError, match="no such corpus file"):
        UnigramTable.from_corpus(tokenizer, tmp_path / "missing.txt")
    (tmp_path / "empty.txt").write_text("\n\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match="no tokens to count; the corpus is empty"):
        UnigramTable.from_corpus(tokenizer, tmp_path / "empty.txt")
    with pytest.raises(DataFormatError, match="give one count per token id"):
        UnigramTable(tokenizer, np.zeros(3, dtype=np.int64))
    # Another tokenizer (this one makes every space a token) splits the same text differently.
    other = UnigramTable(straddling_tokenizer, np.zeros(len(straddling_tokenizer), dtype=np.int64))
    with pytest.raises(DataFormatError, match="for the unigram table; count the unigrams with the model's tokenizer"):
        SLOR(causal_scorer, other).score(["John owns a dog."])

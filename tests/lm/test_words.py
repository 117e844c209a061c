import numpy as np
import pytest
import torch

from plausibility.lm.causal import CausalLMScorer
from plausibility.lm.masked import MaskedLMScorer
from plausibility.lm.words import beginning_of_word_ids

TEXTS = ["The person breathes the air.", "John owns a dog but Mark doesn't own a dog.", "A bird flies."]


def start_mass(scorer: CausalLMScorer, ids: list[int]) -> float:
    """log P(the next token begins a word | ids), read straight off the model."""
    starts = torch.from_numpy(beginning_of_word_ids(scorer.tokenizer))
    with torch.no_grad():
        logprobs = scorer.model(torch.tensor([ids])).logits[0, -1].log_softmax(-1)
    return logprobs[starts].logsumexp(-1).item()


def test_word_starts_are_the_space_marked_items(causal_scorer: CausalLMScorer) -> None:
    starts = beginning_of_word_ids(causal_scorer.tokenizer)
    items = causal_scorer.tokenizer.convert_ids_to_tokens(starts.tolist())
    assert all(item.startswith("Ġ") for item in items) and "Ġdog" in items and "The" not in items


def test_a_tokenizer_with_a_space_token_takes_it_for_the_word_start(straddling_scorer: CausalLMScorer) -> None:
    # Its space is a token of its own, spelled with the space: it is what begins a word (as minicons reads it).
    # exact: integer ids (approx only compares the arrays element by element)
    assert beginning_of_word_ids(straddling_scorer.tokenizer) == pytest.approx(
        [straddling_scorer.tokenizer.convert_tokens_to_ids(" ")]
    )


def test_words_sum_to_the_text_without_the_correction(causal_scorer: CausalLMScorer) -> None:
    words = causal_scorer.word_logprobs(TEXTS, bow_correction=False)
    assert [list(scores.words) for scores in words] == [text.split() for text in TEXTS]
    # the same float32 token values (same requests, same batches); only the float64 summation order differs (~1e-14)
    np.testing.assert_allclose([w.logprobs.sum() for w in words], causal_scorer.text_logprob(TEXTS), atol=1e-6)


def test_the_corrections_cancel_between_words(causal_scorer: CausalLMScorer) -> None:
    # Each word gains the mass after it and the next loses the same mass: only the text's end is left.
    corrected = causal_scorer.word_logprobs(TEXTS)
    plain = causal_scorer.word_logprobs(TEXTS, bow_correction=False)
    bos = causal_scorer.tokenizer.bos_token_id
    for text, ours, theirs in zip(TEXTS, corrected, plain, strict=True):
        end = start_mass(causal_scorer, [bos, *causal_scorer.tokenizer(text).input_ids])
        # float32 token values by log_softmax vs by gather - logsumexp (an ulp apart, 5e-7 at ~6 nats; ~14 tokens),
        # and the end mass from one plain pass: ~1e-5 at most
        assert ours.logprobs.sum() == pytest.approx(theirs.logprobs.sum() + end, abs=1e-4)
        assert np.abs(ours.logprobs - theirs.logprobs).max() > 1e-3  # and each word moves (by ~2.6 nats here)


def test_a_continuations_first_word_is_divided_by_the_start_mass(causal_scorer: CausalLMScorer) -> None:
    context, continuation = "John owns a dog.", "The dog is very cute."
    (words,) = causal_scorer.conditional_word_logprobs([context], [continuation])
    assert words.words == ("The", "dog", "is", "very", "cute.")
    tokenizer, bos = causal_scorer.tokenizer, causal_scorer.tokenizer.bos_token_id
    ids = [bos, *tokenizer(f"{context} {continuation}").input_ids]
    before = start_mass(causal_scorer, [bos, *tokenizer(context).input_ids])
    tokens = causal_scorer.conditional_logprob([context], [continuation])[0]
    # float32 values (~6 nats, ulp 5e-7) by two formulas and two batchings, ~7 tokens and two masses: ~1e-5 at most
    assert words.logprobs.sum() == pytest.approx(tokens - before + start_mass(causal_scorer, ids), abs=1e-4)


def test_masked_words_sum_their_pieces(masked_scorer: MaskedLMScorer) -> None:
    words = masked_scorer.word_logprobs(TEXTS)
    assert [list(scores.words) for scores in words] == [text.split() for text in TEXTS]
    # the same float32 token values (same masked copies, same batches); only the float64 summation order differs
    np.testing.assert_allclose([w.logprobs.sum() for w in words], masked_scorer.text_logprob(TEXTS), atol=1e-6)
    (scores,) = masked_scorer.conditional_word_logprobs(["John owns a dog."], ["The dog is cute."])
    assert scores.words == ("The", "dog", "is", "cute.")


def test_token_pieces_line_up_with_the_token_values(causal_scorer: CausalLMScorer) -> None:
    (pieces,) = causal_scorer.conditional_token_pieces(["John owns a dog."], ["The dog is cute."])
    (values,) = causal_scorer.conditional_token_logprobs(["John owns a dog."], ["The dog is cute."])
    assert "".join(pieces) == " The dog is cute." and len(pieces) == len(values)

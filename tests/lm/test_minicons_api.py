import copy

import numpy as np
import pytest
import torch
from minicons.scorer import IncrementalLMScorer
from minicons.scorer import MaskedLMScorer as MiniconsMaskedLMScorer

from plausibility.errors import DataFormatError
from plausibility.lm.causal import CausalLMScorer
from plausibility.lm.masked import MaskedLMScorer

TEXTS = ["The person breathes the air.", "John owns a dog but Mark doesn't own a dog.", "A bird flies."]
PREFIXES = ["John owns a dog.", "The cat catches the mouse.", "A bird flies over the house."]
STIMULI = ["The dog is very cute.", "It's not a big deal.", "The children watch the bird."]


def total(values):
    return values.sum(0).item()


@pytest.fixture
def minicons_causal(causal_scorer: CausalLMScorer) -> IncrementalLMScorer:
    # minicons sets a pad token on the tokenizer it is given: a copy keeps the shared fixture as it is.
    return IncrementalLMScorer(causal_scorer.model, device="cpu", tokenizer=copy.deepcopy(causal_scorer.tokenizer))


@pytest.fixture
def minicons_masked(masked_scorer: MaskedLMScorer) -> MiniconsMaskedLMScorer:
    tokenizer = copy.deepcopy(masked_scorer.tokenizer)
    # minicons' masked scorer still calls `batch_encode_plus`, which transformers 5 folded into calling the tokenizer.
    tokenizer.batch_encode_plus = tokenizer.__call__
    return MiniconsMaskedLMScorer(masked_scorer.model, device="cpu", tokenizer=tokenizer)


def assert_same_token_scores(ours: list, theirs: list) -> None:
    assert len(ours) == len(theirs)
    for our_row, their_row in zip(ours, theirs, strict=True):
        assert [item[0] for item in our_row] == [item[0] for item in their_row]
        # a tiny LM's float32 token values (~6 nats, ulp 5e-7), batched and padded unlike minicons: an ulp or two
        np.testing.assert_allclose([item[1] for item in our_row], [item[1] for item in their_row], atol=1e-4)
        assert [item[2:] for item in our_row] == [item[2:] for item in their_row]  # ranks, when asked


def test_causal_start_token_is_the_tokenizers_bos(causal_scorer: CausalLMScorer) -> None:
    # The comparisons below rely on minicons' bos_token=True prepending the token ours prepends.
    assert causal_scorer._bos == causal_scorer.tokenizer.bos_token_id


def test_causal_sequence_score_equals_minicons_and_our_own_verbs(
    causal_scorer: CausalLMScorer, minicons_causal: IncrementalLMScorer
) -> None:
    mean = causal_scorer.sequence_score(TEXTS)
    # Ours vs minicons: float32 token values (~6 nats, ulp 5e-7) of batches padded differently, then reduced in
    # float32 (a sum of ~14 reaches ~80 nats, ulp 7.6e-6); ours vs our own float64 reduction of the same values.
    np.testing.assert_allclose(mean, minicons_causal.sequence_score(TEXTS, bos_token=True), atol=1e-4)
    np.testing.assert_allclose(mean, causal_scorer.text_logprob(TEXTS, reduction="mean"), atol=1e-4)
    summed = causal_scorer.sequence_score(TEXTS, reduction=total)
    theirs = minicons_causal.sequence_score(TEXTS, reduction=total, bos_token=True)
    np.testing.assert_allclose(summed, theirs, atol=1e-4)  # float32 sums: a few ulps of ~80 nats
    np.testing.assert_allclose(summed, causal_scorer.text_logprob(TEXTS), atol=1e-4)  # float32 vs float64 sums
    bits = causal_scorer.sequence_score(TEXTS, reduction=total, base_two=True)
    theirs = minicons_causal.sequence_score(TEXTS, reduction=total, base_two=True, bos_token=True)
    np.testing.assert_allclose(bits, theirs, atol=1e-4)  # as the sums above, over ln 2
    np.testing.assert_allclose(bits, causal_scorer.text_logprob(TEXTS) / np.log(2), atol=1e-4)  # float32 vs float64
    # One text, as minicons takes it: alone, not padded beside two others, so a float32 token value (~6 nats) may
    # round an ulp (5e-7) apart.
    assert causal_scorer.sequence_score(TEXTS[0]) == pytest.approx(mean[:1], abs=1e-5)


def test_causal_conditional_score_equals_minicons_and_our_own_verb(
    causal_scorer: CausalLMScorer, minicons_causal: IncrementalLMScorer
) -> None:
    mean = causal_scorer.conditional_score(PREFIXES, STIMULI)
    # As above: float32 token values (~6 nats) of differently padded batches, reduced in float32 or float64.
    np.testing.assert_allclose(mean, minicons_causal.conditional_score(PREFIXES, STIMULI, bos_token=True), atol=1e-4)
    np.testing.assert_allclose(mean, causal_scorer.conditional_logprob(PREFIXES, STIMULI, reduction="mean"), atol=1e-4)
    summed = causal_scorer.conditional_score(PREFIXES, STIMULI, reduction=total)
    theirs = minicons_causal.conditional_score(PREFIXES, STIMULI, reduction=total, bos_token=True)
    np.testing.assert_allclose(summed, theirs, atol=1e-4)  # float32 sums of ~7 tokens: a few ulps of ~40 nats
    # the same values summed in float32 vs in float64: a few ulps of ~40 nats
    np.testing.assert_allclose(summed, causal_scorer.conditional_logprob(PREFIXES, STIMULI), atol=1e-4)


def test_causal_conditional_score_with_another_separator_equals_minicons(
    causal_scorer: CausalLMScorer, minicons_causal: IncrementalLMScorer
) -> None:
    ours = causal_scorer.conditional_score(PREFIXES, STIMULI, separator="\n", reduction=total)
    theirs = minicons_causal.conditional_score(PREFIXES, STIMULI, separator="\n", reduction=total, bos_token=True)
    np.testing.assert_allclose(ours, theirs, atol=1e-4)  # float32 sums of ~7 tokens: a few ulps of ~40 nats
    # a newline for the space moves each sum by 0.02 or more, float noise by ~1e-5
    assert not np.allclose(ours, causal_scorer.conditional_score(PREFIXES, STIMULI, reduction=total), atol=1e-3)


def test_causal_token_score_equals_minicons_and_our_own_verb(
    causal_scorer: CausalLMScorer, minicons_causal: IncrementalLMScorer
) -> None:
    ours = causal_scorer.token_score(TEXTS)
    assert_same_token_scores(ours, minicons_causal.token_score(TEXTS, bos_token=True))
    start = causal_scorer.tokenizer.bos_token
    assert [row[0] for row in ours] == [(start, 0.0)] * len(TEXTS)  # the unscored start token
    for row, values in zip(ours, causal_scorer.token_logprobs(TEXTS), strict=True):
        # the same values, only cast to float32: half an ulp (2.4e-7 at 6 nats)
        np.testing.assert_allclose([score for _, score in row[1:]], values, atol=1e-4)
    for flags in ({"surprisal": True}, {"surprisal": True, "base_two": True}, {"prob": True}):
        assert_same_token_scores(
            causal_scorer.token_score(TEXTS, **flags), minicons_causal.token_score(TEXTS, bos_token=True, **flags)
        )


def test_causal_token_ranks_equal_minicons(causal_scorer: CausalLMScorer, minicons_causal: IncrementalLMScorer) -> None:
    ours = causal_scorer.token_score(TEXTS, rank=True)
    theirs = minicons_causal.token_score(TEXTS, bos_token=True, rank=True)
    # The tiny Llama's start token is its zeroed padding embedding, so its first prediction ties every token:
    # minicons ranks a tie in arbitrary order, ours counts the strictly more probable tokens (none: rank 1).
    # Equal logits: the float32 log-softmax gives -log 320 to an ulp (5e-7); GPT-2's first value is 0.07 off.
    uniform = np.isclose(ours[0][1][1], -np.log(len(causal_scorer.tokenizer)), atol=1e-6)
    first = 2 if uniform else 1
    if uniform:
        assert [row[1][2] for row in ours] == [1] * len(TEXTS)
    assert_same_token_scores([row[:1] + row[first:] for row in ours], [row[:1] + row[first:] for row in theirs])


def test_causal_ranks_count_the_more_probable_tokens(causal_scorer: CausalLMScorer) -> None:
    tokenizer, model = causal_scorer.tokenizer, causal_scorer.model
    text = TEXTS[0]
    ids = [tokenizer.bos_token_id, *tokenizer(text).input_ids]
    with torch.no_grad():
        logprobs = model(torch.tensor([ids])).logits[0].log_softmax(-1)
    expected = [int((logprobs[i - 1] > logprobs[i - 1, ids[i]]).sum()) + 1 for i in range(1, len(ids))]
    (ranks,) = causal_scorer.token_ranks([text])
    assert ranks.tolist() == expected


@pytest.mark.parametrize(("pll", "theirs"), [("word-l2r", "within_word_l2r"), ("original", "original")])
def test_masked_pll_metrics_equal_minicons(
    masked_scorer: MaskedLMScorer, minicons_masked: MiniconsMaskedLMScorer, pll: str, theirs: str
) -> None:
    ours = MaskedLMScorer.from_model(masked_scorer.model, masked_scorer.tokenizer, batch_size=4, pll=pll)
    # Both: float32 PLL sums of ~10 masked tokens (~6 nats, ulp 5e-7), batched unlike minicons: ~1e-5 at most.
    np.testing.assert_allclose(
        ours.sequence_score(TEXTS, reduction=total),
        minicons_masked.sequence_score(TEXTS, reduction=total, PLL_metric=theirs),
        atol=1e-4,
    )
    np.testing.assert_allclose(
        ours.conditional_score(PREFIXES, STIMULI, reduction=total),
        minicons_masked.conditional_score(PREFIXES, STIMULI, reduction=total, PLL_metric=theirs),
        atol=1e-4,
    )


def test_causal_word_scores_with_the_correction_equal_minicons(
    causal_scorer: CausalLMScorer, minicons_causal: IncrementalLMScorer
) -> None:
    # minicons' corrected token scores, summed over the tokens of each word between spaces.
    theirs = minicons_causal.token_score(TEXTS, bos_token=True, bow_correction=True)
    ours = causal_scorer.word_score(TEXTS)
    for text, their_row, our_row in zip(TEXTS, theirs, ours, strict=True):
        words = text.split()
        assert [word for word, _ in our_row] == words
        pieces = iter(their_row[1:])  # after the unscored start token
        expected = []
        for word in words:
            spelled, total_score = "", 0.0
            while spelled.replace("Ġ", " ").strip() != word:
                token, score = next(pieces)
                spelled, total_score = spelled + token, total_score + score
            expected.append(total_score)
        # corrected float32 token values (~6 nats) summed per word, ours vs minicons' batches: ~1e-6 a word
        np.testing.assert_allclose([score for _, score in our_row], expected, atol=1e-4)


def test_masked_names_equal_minicons_and_our_own_verbs(
    original_pll_scorer: MaskedLMScorer, minicons_masked: MiniconsMaskedLMScorer
) -> None:
    masked_scorer = original_pll_scorer  # minicons' default metric
    mean = masked_scorer.sequence_score(TEXTS)
    # As for the causal LM: float32 token values (~6 nats) of differently padded batches, reduced in float32 (a
    # sum of ~14 reaches ~80 nats, ulp 7.6e-6) or in float64.
    np.testing.assert_allclose(mean, minicons_masked.sequence_score(TEXTS), atol=1e-4)
    np.testing.assert_allclose(mean, masked_scorer.text_logprob(TEXTS, reduction="mean"), atol=1e-4)
    summed = masked_scorer.sequence_score(TEXTS, reduction=total, base_two=True)
    # float32 sums of ~14 token values in bits (~115, ulp 7.6e-6), padded differently: a few ulps
    np.testing.assert_allclose(summed, minicons_masked.sequence_score(TEXTS, reduction=total, base_two=True), atol=1e-4)
    conditional = masked_scorer.conditional_score(PREFIXES, STIMULI, reduction=total)
    # float32 sums of ~7 token values (~40 nats, ulp 3.8e-6), padded differently: a few ulps
    np.testing.assert_allclose(
        conditional, minicons_masked.conditional_score(PREFIXES, STIMULI, reduction=total), atol=1e-4
    )
    # the same values summed in float32 vs in float64: a few ulps of ~40 nats
    np.testing.assert_allclose(conditional, masked_scorer.conditional_logprob(PREFIXES, STIMULI), atol=1e-4)
    for flags in ({}, {"surprisal": True}, {"prob": True}, {"rank": True}):
        assert_same_token_scores(masked_scorer.token_score(TEXTS, **flags), minicons_masked.token_score(TEXTS, **flags))
    for row, values in zip(masked_scorer.token_score(TEXTS), masked_scorer.token_logprobs(TEXTS), strict=True):
        np.testing.assert_allclose([score for _, score in row], values, atol=1e-4)  # a float32 cast: 2.4e-7


def test_a_probability_with_a_base_is_refused(causal_scorer: CausalLMScorer) -> None:
    message = "prob=True returns probabilities, which have no base and no surprisal; drop base_two=True"
    with pytest.raises(DataFormatError, match=message):
        causal_scorer.sequence_score(TEXTS, prob=True, base_two=True)
    with pytest.raises(DataFormatError, match=message):
        causal_scorer.token_score(TEXTS, prob=True, surprisal=True)

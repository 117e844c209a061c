"""What `LanguageModelScorer` promises, checked on the outputs of each language model that keeps it."""

import numpy as np
import pytest

from plausibility.lm.causal import CausalLMScorer
from plausibility.lm.masked import MaskedLMScorer
from plausibility.lm.protocol import LanguageModelScorer

pytestmark = pytest.mark.numeric  # float32 token values summed in float64, compared across calls

TEXTS = ["The dog is very cute.", "The cat catches the mouse."]
CONTEXTS = ["John owns a dog.", ""]


def test_a_causal_lm_keeps_the_language_model_scorer_contract(causal_scorer: CausalLMScorer) -> None:
    assert_keeps_the_contract(causal_scorer)


def test_a_masked_lm_keeps_the_language_model_scorer_contract(
    masked_scorer: MaskedLMScorer, original_pll_scorer: MaskedLMScorer
) -> None:
    assert_keeps_the_contract(masked_scorer)
    assert_keeps_the_contract(original_pll_scorer)


def assert_keeps_the_contract(scorer: LanguageModelScorer) -> None:
    # Float64 natural-log values, one per text, each reduced from its tokens' values.
    totals, tokens = scorer.text_logprob(TEXTS), scorer.token_logprobs(TEXTS)
    assert totals.dtype == np.float64 and totals.shape == (len(TEXTS),)
    assert [(values.dtype, values.ndim) for values in tokens] == [(np.float64, 1)] * len(TEXTS)
    assert (np.concatenate(tokens) < 0).all()  # log-probabilities of tokens a softmax spreads over a vocabulary
    # The reductions sum or average the same float32 token values (~6 nats) in float64: ~1e-6 apart at most.
    np.testing.assert_allclose(totals, [values.sum() for values in tokens], rtol=0, atol=1e-4)
    means = scorer.text_logprob(TEXTS, reduction="mean")
    np.testing.assert_allclose(means, [values.mean() for values in tokens], rtol=0, atol=1e-4)

    # A continuation's tokens carry the joining space and nothing of its context; an empty context scores the text.
    conditional = scorer.conditional_logprob(CONTEXTS, TEXTS)
    values = scorer.conditional_token_logprobs(CONTEXTS, TEXTS)
    pieces = scorer.conditional_token_pieces(CONTEXTS, TEXTS)
    assert conditional.dtype == np.float64 and conditional.shape == (len(TEXTS),)
    assert ["".join(text) for text in pieces] == [" " + TEXTS[0], TEXTS[1]]
    assert [len(text) for text in pieces] == [len(text) for text in values]
    np.testing.assert_allclose(conditional, [text.sum() for text in values], rtol=0, atol=1e-4)  # as above
    assert conditional[1] == pytest.approx(totals[1], abs=1e-4)  # the same tokens, scored in another call

    # A word is what lies between spaces, and its value its tokens' sum (without the beginning-of-word correction).
    words = scorer.conditional_word_logprobs(CONTEXTS, TEXTS, bow_correction=False)
    assert [scores.words for scores in words] == [tuple(text.split()) for text in TEXTS]
    assert [scores.logprobs.dtype for scores in words] == [np.float64] * len(TEXTS)
    np.testing.assert_allclose([scores.logprobs.sum() for scores in words], conditional, rtol=0, atol=1e-4)

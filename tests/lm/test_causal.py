import numpy as np
import pytest
import torch

from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.lm.causal import CausalLMScorer

pytestmark = pytest.mark.numeric  # per-token float32 values compared across batches

CONTEXTS = [
    "John owns a dog but Mark doesn't own a dog.",
    "John owns a dog but Mark doesn't own a dog.",
    "John owns a dog but Mark doesn't own a dog.",
    "The cat catches the mouse.",
    "",
    "A bird flies over the house and the children watch the bird.",
]
CONTINUATIONS = [
    "The dog is very cute.",
    "The dogs are very cute.",
    "It's not a big deal.",
    "The person breathes the air.",
    "The dog is very cute.",
    "It's not a big deal.",
]


def direct_logprobs(model: torch.nn.Module, ids: list[int]) -> np.ndarray:
    """log P(ids[i] | ids[:i]) for i >= 1, from one plain forward pass over the whole sequence."""
    with torch.no_grad():
        logprobs = model(torch.tensor([ids])).logits[0].log_softmax(-1)
    return np.array([logprobs[i - 1, ids[i]].item() for i in range(1, len(ids))])


def test_continuation_logprob_is_the_sum_of_its_token_logprobs(causal_scorer: CausalLMScorer) -> None:
    tokenizer = causal_scorer.tokenizer
    joined = "John owns a dog. The dog is very cute."
    encoded = tokenizer(joined, return_offsets_mapping=True)
    first = tokenizer.convert_ids_to_tokens(encoded.input_ids).index("ĠThe")
    # The continuation's first token carries the joining space (character 16): it belongs to the continuation.
    assert encoded.offset_mapping[first] == (16, 20)
    ids = [tokenizer.bos_token_id, *encoded.input_ids]
    expected = direct_logprobs(causal_scorer.model, ids)[first:]

    summed = causal_scorer.conditional_logprob(["John owns a dog."], ["The dog is very cute."])
    mean = causal_scorer.conditional_logprob(["John owns a dog."], ["The dog is very cute."], reduction="mean")
    # Both: a tiny LM's float32 token values (~6 nats, ulp 5e-7), our batched pass vs one plain pass: ~1e-5 summed.
    assert summed[0] == pytest.approx(expected.sum(), abs=1e-4)
    assert mean[0] == pytest.approx(expected.mean(), abs=1e-4)


def test_whole_text_scores_every_token_after_the_bos(causal_scorer: CausalLMScorer) -> None:
    tokenizer = causal_scorer.tokenizer
    text = "The person breathes the air."
    ids = [tokenizer.bos_token_id, *tokenizer(text).input_ids]
    expected = direct_logprobs(causal_scorer.model, ids)

    (tokens,) = causal_scorer.token_logprobs([text])
    np.testing.assert_allclose(tokens, expected, atol=1e-4)  # float32 token value (~6 nats): an ulp or two, 5e-7
    # float32 token values summed over ~7 tokens: ~1e-5 at most
    assert causal_scorer.text_logprob([text])[0] == pytest.approx(expected.sum(), abs=1e-4)
    # An empty context is the whole text (the same values, the same bound).
    assert causal_scorer.conditional_logprob([""], [text])[0] == pytest.approx(expected.sum(), abs=1e-4)


def test_a_token_straddling_context_and_continuation_is_scored_with_the_continuation(
    straddling_scorer: CausalLMScorer,
) -> None:
    tokenizer = straddling_scorer.tokenizer
    joined = "John owns a dog. The dog is cute."
    tokens = tokenizer.tokenize(joined)
    assert tokens[7:] == [". The", " ", "dog", " ", "is", " ", "cute", "."]
    ids = [tokenizer.bos_token_id, *tokenizer(joined).input_ids]
    expected = direct_logprobs(straddling_scorer.model, ids)[7:]

    score = straddling_scorer.conditional_logprob(["John owns a dog."], ["The dog is cute."])
    assert score[0] == pytest.approx(expected.sum(), abs=1e-4)  # ~8 float32 token values (~6 nats) summed: ~1e-5


@pytest.mark.parametrize("batch_size", [2, 3, 64])
def test_batched_equals_unbatched(causal_scorer: CausalLMScorer, batch_size: int) -> None:
    one = CausalLMScorer.from_model(causal_scorer.model, causal_scorer.tokenizer, batch_size=1)
    many = CausalLMScorer.from_model(causal_scorer.model, causal_scorer.tokenizer, batch_size=batch_size)

    # Padded beside others or alone: ~7 float32 token values (~6 nats, ulp 5e-7) summed move by ~1e-5 at most.
    np.testing.assert_allclose(
        many.conditional_logprob(CONTEXTS, CONTINUATIONS), one.conditional_logprob(CONTEXTS, CONTINUATIONS), atol=1e-4
    )
    texts = [f"{c} {x}".strip() for c, x in zip(CONTEXTS, CONTINUATIONS, strict=True)]
    for batched, alone in zip(many.token_logprobs(texts), one.token_logprobs(texts), strict=True):
        np.testing.assert_allclose(batched, alone, atol=1e-4)  # a float32 token value: an ulp or two (5e-7)


def test_shared_contexts_agree_with_the_plain_forward_pass(causal_scorer: CausalLMScorer) -> None:
    tokenizer = causal_scorer.tokenizer
    scores = causal_scorer.conditional_logprob(CONTEXTS, CONTINUATIONS)
    for context, continuation, score in zip(CONTEXTS, CONTINUATIONS, scores, strict=True):
        joined = f"{context} {continuation}" if context else continuation
        ids = [tokenizer.bos_token_id, *tokenizer(joined).input_ids]
        n_continuation = len(tokenizer(f" {continuation}").input_ids) if context else len(ids) - 1
        # a shared context's cache vs one plain pass: ~7 float32 token values (~6 nats) summed, ~1e-5 at most
        assert score == pytest.approx(direct_logprobs(causal_scorer.model, ids)[-n_continuation:].sum(), abs=1e-4)


def test_outputs_follow_input_order(causal_scorer: CausalLMScorer) -> None:
    forward = causal_scorer.conditional_logprob(CONTEXTS, CONTINUATIONS)
    backward = causal_scorer.conditional_logprob(CONTEXTS[::-1], CONTINUATIONS[::-1])
    # The same batches, their rows reordered (ties in the length sort): float32 may round a token value (~6 nats)
    # an ulp (5e-7) apart, and ~7 are summed. Texts that differ differ by far more.
    np.testing.assert_allclose(forward, backward[::-1], atol=1e-5)


def test_bad_input_fails_with_a_clear_message(causal_scorer: CausalLMScorer) -> None:
    with pytest.raises(DataFormatError, match="2 contexts but 1 continuations"):
        causal_scorer.conditional_logprob(["a", "b"], ["c"])
    with pytest.raises(DataFormatError, match=r"continuation 1 is empty \(' '\); give a non-empty string"):
        causal_scorer.conditional_logprob(["a", "b"], ["c", " "])
    with pytest.raises(DataFormatError, match="text 0 is empty"):
        causal_scorer.text_logprob([""])
    with pytest.raises(UnknownNameError, match="unknown reduction 'max'; known: mean, sum"):
        causal_scorer.text_logprob(["a dog"], reduction="max")
    with pytest.raises(DataFormatError, match="batch_size must be at least 1, got 0"):
        CausalLMScorer.from_model(causal_scorer.model, causal_scorer.tokenizer, batch_size=0)


@pytest.mark.integration
def test_offline_causal_lm_matches_a_plain_forward_pass() -> None:
    scorer = CausalLMScorer(device="cpu", batch_size=8)
    context, continuation = "John owns a dog but Mark doesn't own a dog.", "The dog is very cute."
    ids = [scorer._bos, *scorer.tokenizer(f"{context} {continuation}", add_special_tokens=False).input_ids]
    n_continuation = len(scorer.tokenizer(f" {continuation}", add_special_tokens=False).input_ids)
    expected = direct_logprobs(scorer.model, ids)[-n_continuation:].sum()
    # float32 135M LM: padding and thread count move a token's log-probability by up to ~4e-5; ~6 tokens summed
    assert scorer.conditional_logprob([context], [continuation])[0] == pytest.approx(expected, abs=1e-3)


def test_start_token_prefers_the_document_boundary_over_a_chat_bos() -> None:
    from tokenizers import Tokenizer, models
    from transformers import PreTrainedTokenizerFast

    from plausibility.lm.causal import start_token_id

    def tokenizer(vocabulary: list[str]) -> PreTrainedTokenizerFast:
        model = models.WordLevel({word: i for i, word in enumerate(vocabulary)}, unk_token="a")
        return PreTrainedTokenizerFast(tokenizer_object=Tokenizer(model), bos_token="<|im_start|>")

    assert start_token_id(tokenizer(["<|im_start|>", "<|endoftext|>", "a"])) == 1
    assert start_token_id(tokenizer(["<|im_start|>", "a"])) == 0


def test_models_without_a_position_mask_are_scored_through_their_full_logits(causal_scorer: CausalLMScorer) -> None:
    full = CausalLMScorer.from_model(causal_scorer.model, causal_scorer.tokenizer, batch_size=3)
    assert causal_scorer._keeps_positions  # transformers' own models take logits_to_keep as a position mask
    full._keeps_positions = False
    # The vocabulary projected at every position vs the scored ones: an ulp (5e-7) per float32 token value of
    # ~6 nats, ~7 tokens summed.
    np.testing.assert_allclose(
        full.conditional_logprob(CONTEXTS, CONTINUATIONS),
        causal_scorer.conditional_logprob(CONTEXTS, CONTINUATIONS),
        atol=1e-5,
    )


@pytest.mark.parametrize("batch_size", [1, 2, 64])
def test_texts_that_begin_alike_run_their_start_once_and_agree_with_the_plain_forward_pass(
    causal_scorer: CausalLMScorer, batch_size: int
) -> None:
    scorer = CausalLMScorer.from_model(causal_scorer.model, causal_scorer.tokenizer, batch_size=batch_size)
    texts = [
        "John owns a dog. The dog is very cute.",
        "John owns a dog. The dogs are very cute.",
        "John owns a cat.",
        "John owns a dog.",
        "John owns a dog.",
        "A bird flies over the house.",
        "A bird flies.",
        "The cat catches the mouse.",
    ]
    requests = scorer._requests([""] * len(texts), texts)
    runs = scorer._common_starts(range(len(texts)), requests)
    assert sorted(sorted(members) for _, members in runs) == [[0, 1, 2, 3, 4], [5, 6]]
    tokenizer = scorer.tokenizer
    for text, values in zip(texts, scorer.token_logprobs(texts), strict=True):
        expected = direct_logprobs(scorer.model, [tokenizer.bos_token_id, *tokenizer(text).input_ids])
        np.testing.assert_allclose(values, expected, atol=1e-4)  # a shared start's cache: a token value moves ~5e-7


@pytest.mark.integration
def test_a_text_given_twice_gets_equal_values_whatever_batch_each_would_fall_in() -> None:
    # The offline LM, as the tiny ones are too small for padding to move their float32 sums.
    scorer = CausalLMScorer(device="cpu", batch_size=2)
    twice = "The dog is very cute."
    # Sorted by length, one copy would share a batch with the short text, the other with the long one: padded
    # to different widths, their float32 sums differ in the last bits (by ~3e-5 in a logit here). Run once,
    # they are equal exactly.
    texts = ["A bird.", twice, twice, "A bird flies over the house and the children watch the bird."]
    first, second = scorer.token_logprobs(texts)[1:3]
    assert first.tolist() == second.tolist()
    contexts = ["A cat.", "The cat catches the mouse.", "A dog.", "The cat catches the mouse."]
    continuations = ["It sleeps.", twice, "It ran away from the house and the children watched it go.", twice]
    scores = scorer.conditional_logprob(contexts, continuations)
    assert scores[1] == scores[3]

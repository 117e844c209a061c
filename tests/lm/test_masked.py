import copy

import numpy as np
import pytest
import torch
from transformers import RobertaForMaskedLM

from plausibility.errors import DataFormatError, ResourceMissingError, UnknownNameError
from plausibility.lm.masked import MaskedLMScorer

pytestmark = pytest.mark.numeric  # per-token float32 values compared across batches

CONTEXTS = ["John owns a dog but Mark doesn't own a dog.", "John owns a dog but Mark doesn't own a dog.", "", "A bird."]
CONTINUATIONS = ["The dog is very cute.", "It's not a big deal.", "The cat catches the mouse.", "The bird flies."]


def direct_masked(
    model: torch.nn.Module, ids: list[int], masked: list[int], scored: list[int], mask_id: int
) -> np.ndarray:
    """Log-probabilities at `scored` with every position of `masked` masked, from one unbatched forward pass."""
    inputs = torch.tensor([ids])
    inputs[0, masked] = mask_id
    with torch.no_grad():
        logprobs = model(inputs).logits[0].log_softmax(-1)
    return np.array([logprobs[p, ids[p]].item() for p in scored])


def test_pseudo_log_likelihood_masks_each_token_in_turn(original_pll_scorer: MaskedLMScorer) -> None:
    tokenizer, model = original_pll_scorer.tokenizer, original_pll_scorer.model
    text = "The cat catches the mouse."
    ids = tokenizer(text).input_ids
    assert ids[0] == tokenizer.cls_token_id and ids[-1] == tokenizer.sep_token_id  # never scored
    expected = [direct_masked(model, ids, [p], [p], tokenizer.mask_token_id)[0] for p in range(1, len(ids) - 1)]

    (tokens,) = original_pll_scorer.token_logprobs([text])
    # A tiny RoBERTa's float32 token values (~6 nats, ulp 5e-7), a batch of masked copies vs one pass each: an ulp
    # or two a token, ~1e-5 over the ~7 summed.
    np.testing.assert_allclose(tokens, expected, atol=1e-4)
    assert original_pll_scorer.text_logprob([text])[0] == pytest.approx(sum(expected), abs=1e-4)
    assert original_pll_scorer.text_logprob([text], reduction="mean")[0] == pytest.approx(np.mean(expected), abs=1e-4)


def test_word_l2r_masks_the_later_pieces_of_the_word(masked_model: RobertaForMaskedLM, masked_tokenizer) -> None:
    # Weights drawn wide, so that what a mask hides moves the predictions well beyond rounding.
    config = copy.deepcopy(masked_model.config)
    config.initializer_range = 1.0
    torch.manual_seed(0)
    model = RobertaForMaskedLM(config).eval()
    masked_scorer = MaskedLMScorer.from_model(model, masked_tokenizer)
    original_pll_scorer = MaskedLMScorer.from_model(model, masked_tokenizer, pll="original")
    tokenizer, mask = masked_tokenizer, masked_tokenizer.mask_token_id
    text = "The person breathes the air."
    encoded = tokenizer(text)
    ids = encoded.input_ids
    # The tiny vocabulary splits " person" into six pieces, " breathes" into four and " air" into two.
    assert tokenizer.convert_ids_to_tokens(ids)[1:-1] == [
        "The", "Ġ", "p", "er", "s", "o", "n", "Ġb", "re", "athe", "s", "Ġthe", "Ġa", "ir", ".",
    ]  # fmt: skip
    # Each piece is scored with the later pieces of its word masked too: the first sees no other piece.
    masks = {p: list(range(p, 8)) for p in range(2, 8)} | {p: list(range(p, 12)) for p in range(8, 12)}
    masks |= {1: [1], 12: [12], 13: [13, 14], 14: [14], 15: [15]}
    expected = [direct_masked(model, ids, masks[p], [p], mask)[0] for p in range(1, len(ids) - 1)]

    (word_l2r,) = masked_scorer.token_logprobs([text])
    (original,) = original_pll_scorer.token_logprobs([text])
    # wide weights: token values of 6-31 nats (ulp up to 1.9e-6) through large activations, batched vs alone
    np.testing.assert_allclose(word_l2r, expected, atol=1e-4)
    assert masked_scorer.pll == "word-l2r" and original_pll_scorer.pll == "original"
    # A word's last piece, and a word of one piece, are scored alike by both metrics; its other pieces are not.
    alike = [p - 1 for p, masked in masks.items() if masked == [p]]
    unlike = [p - 1 for p, masked in masks.items() if masked != [p]]
    # The same masked copy at the same row of same-shaped batches: equal bit for bit (at 6-31 nats, 1e-6 is
    # under an ulp, so the check is exact).
    np.testing.assert_allclose(word_l2r[alike], original[alike], atol=1e-6)
    assert np.all(np.abs(word_l2r[unlike] - original[unlike]) > 1e-2)  # masking moves these by 0.4 or more


def test_an_unknown_pll_metric_is_refused(masked_scorer: MaskedLMScorer) -> None:
    with pytest.raises(UnknownNameError, match="unknown PLL metric 'within_word'; known: original, word-l2r"):
        MaskedLMScorer.from_model(masked_scorer.model, masked_scorer.tokenizer, pll="within_word")


def test_a_long_text_scores_alike_in_batches_of_1_7_and_64(masked_scorer: MaskedLMScorer) -> None:
    text = " ".join(["John owns a dog but Mark doesn't own a dog."] * 5)  # more masked copies than a batch holds
    assert len(masked_scorer.tokenizer(text).input_ids) > 64
    model, tokenizer = masked_scorer.model, masked_scorer.tokenizer
    scores = [
        MaskedLMScorer.from_model(model, tokenizer, batch_size=size).token_logprobs([text])[0] for size in (1, 7, 64)
    ]
    # Both: copies of one text (no padding) in batches of other sizes: a float32 token value (~6 nats) moves an ulp
    # or two (5e-7).
    np.testing.assert_allclose(scores[1], scores[0], atol=1e-5)
    np.testing.assert_allclose(scores[2], scores[0], atol=1e-5)


def test_conditional_masks_only_the_continuation(original_pll_scorer: MaskedLMScorer) -> None:
    masked_scorer = original_pll_scorer
    tokenizer, model = masked_scorer.tokenizer, masked_scorer.model
    context, continuation = "John owns a dog.", "The dog is very cute."
    encoded = tokenizer(f"{context} {continuation}", return_offsets_mapping=True)
    # Tokens from the joining space on, </s> excluded.
    positions = [i for i, (a, b) in enumerate(encoded.offset_mapping) if b > len(context) and a < b]
    assert tokenizer.convert_ids_to_tokens(encoded.input_ids[positions[0]]) == "ĠThe"
    expected = sum(direct_masked(model, encoded.input_ids, [p], [p], tokenizer.mask_token_id)[0] for p in positions)
    # float32 token values (~6 nats) batched vs one pass each, ~7 summed: ~1e-5 at most
    assert masked_scorer.conditional_logprob([context], [continuation])[0] == pytest.approx(expected, abs=1e-4)


def test_several_spans_masked_at_once(masked_scorer: MaskedLMScorer) -> None:
    tokenizer, model = masked_scorer.tokenizer, masked_scorer.model
    text = "The person breathes the air."
    encoded = tokenizer(text, return_offsets_mapping=True)
    ids, offsets = encoded.input_ids, encoded.offset_mapping
    tokens = tokenizer.convert_ids_to_tokens(ids)
    subject = [i for i, (a, b) in enumerate(offsets) if b > 4 and a < 10]
    obj = [i for i, (a, b) in enumerate(offsets) if b > 24 and a < 27]
    # The tiny vocabulary splits both nouns: all their pieces are masked together.
    assert "".join(tokens[i] for i in subject).strip("Ġ") == "person" and len(subject) > 1
    assert "".join(tokens[i] for i in obj) == "Ġair" and len(obj) == 2
    expected = direct_masked(model, ids, subject + obj, obj, tokenizer.mask_token_id)

    (values,) = masked_scorer.masked_logprobs([text], [[(4, 10), (24, 27)]], [(24, 27)])
    np.testing.assert_allclose(values, expected, atol=1e-4)  # a float32 token value (~6 nats): an ulp or two, 5e-7


def test_batched_equals_unbatched(masked_scorer: MaskedLMScorer) -> None:
    one = MaskedLMScorer.from_model(masked_scorer.model, masked_scorer.tokenizer, batch_size=1)
    many = MaskedLMScorer.from_model(masked_scorer.model, masked_scorer.tokenizer, batch_size=7)
    # Padded beside others or alone: ~7 float32 token values (~6 nats, ulp 5e-7) summed, ~1e-5 at most.
    np.testing.assert_allclose(
        many.conditional_logprob(CONTEXTS, CONTINUATIONS), one.conditional_logprob(CONTEXTS, CONTINUATIONS), atol=1e-4
    )
    texts = ["The person breathes the air.", "A bird flies over the house."]
    spans = [[(4, 10), (24, 27)], [(2, 6), (22, 27)]]
    scored = [(24, 27), (22, 27)]
    for batched, alone in zip(
        many.masked_logprobs(texts, spans, scored), one.masked_logprobs(texts, spans, scored), strict=True
    ):
        np.testing.assert_allclose(batched, alone, atol=1e-4)  # a float32 token value: an ulp or two (5e-7)


def test_bad_input_fails_with_a_clear_message(masked_scorer: MaskedLMScorer) -> None:
    with pytest.raises(DataFormatError, match="1 texts, 2 masked-span lists and 1 scored spans"):
        masked_scorer.masked_logprobs(["a dog"], [[], []], [(0, 1)])
    with pytest.raises(DataFormatError, match=r"has no tokens in the scored span \(9, 12\)"):
        masked_scorer.masked_logprobs(["a dog"], [[]], [(9, 12)])
    with pytest.raises(DataFormatError, match="continuation 0 is empty"):
        masked_scorer.conditional_logprob(["a"], [""])


def test_a_tokenizer_without_a_mask_token_is_refused(masked_scorer: MaskedLMScorer, causal_tokenizer) -> None:
    with pytest.raises(ResourceMissingError, match="has no mask token"):
        MaskedLMScorer.from_model(masked_scorer.model, causal_tokenizer)


def test_a_bert_head_scores_only_the_masked_positions_alike(lm_folders: dict) -> None:
    # BERT's head is `cls`, RoBERTa's `lm_head`: both are run on the scored positions alone.
    scorer = MaskedLMScorer(str(lm_folders["masked"]), device="cpu", pll="original")
    tokenizer, model = scorer.tokenizer, scorer.model
    ids = tokenizer("the dog chase the cat .").input_ids
    expected = [direct_masked(model, ids, [p], [p], tokenizer.mask_token_id)[0] for p in range(1, len(ids) - 1)]
    # the head on the scored positions vs the full logits: an ulp or two of ~3-nat float32 values (ulp 2.4e-7)
    np.testing.assert_allclose(scorer.token_logprobs(["the dog chase the cat ."])[0], expected, atol=1e-5)

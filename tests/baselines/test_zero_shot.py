from pathlib import Path

import numpy as np
import pytest
import torch
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import BertConfig, BertForMaskedLM, GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

from plausibility.baselines.zero_shot import ZeroShotScorer
from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.lm.causal import CausalLMScorer
from plausibility.lm.masked import MaskedLMScorer
from plausibility.resources.paths import data_dir
from plausibility.scorers.calibrated import uncalibrated
from plausibility.scorers.calibration import Calibration
from plausibility.scorers.protocol import TripleScorer
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple

SENTENCES = ["The person breathes the air.", "The cat catches the mouse.", "A bird flies over the house."]
TRIPLES = [Triple("person", "breathe", "air"), Triple("cat", "catch", "mouse"), Triple("air", "breathe", "person")]


@pytest.fixture(scope="module")
def tokenizer() -> PreTrainedTokenizerFast:
    """A WordPiece tokenizer so small that "person" and "mouse" split into several pieces."""
    backend = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    backend.normalizer = normalizers.BertNormalizer(lowercase=True)
    backend.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    backend.decoder = decoders.WordPiece()
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    backend.train_from_iterator(SENTENCES, trainers.WordPieceTrainer(vocab_size=60, special_tokens=special))
    backend.post_processor = processors.BertProcessing(("[SEP]", 3), ("[CLS]", 2))
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token="[CLS]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        pad_token="[PAD]",
        unk_token="[UNK]",
        mask_token="[MASK]",
    )


@pytest.fixture(scope="module")
def masked_lm(tokenizer: PreTrainedTokenizerFast) -> MaskedLMScorer:
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=37
    )
    return MaskedLMScorer.from_model(BertForMaskedLM(config).eval(), tokenizer, batch_size=2)


@pytest.fixture(scope="module")
def causal_lm(tokenizer: PreTrainedTokenizerFast) -> CausalLMScorer:
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(tokenizer), n_embd=32, n_layer=2, n_head=4, n_positions=64)
    return CausalLMScorer.from_model(GPT2LMHeadModel(config).eval(), tokenizer, batch_size=2)


def causal_logprob(lm: CausalLMScorer, text: str) -> float:
    """log P(text) from one plain forward pass over [CLS] + the text's tokens."""
    ids = [lm.tokenizer.bos_token_id, *lm.tokenizer(text, add_special_tokens=False).input_ids]
    with torch.no_grad():
        logprobs = lm.model(torch.tensor([ids])).logits[0].log_softmax(-1)
    return sum(logprobs[i - 1, ids[i]].item() for i in range(1, len(ids)))


def test_masked_formula_equals_a_direct_computation(masked_lm: MaskedLMScorer) -> None:
    tokenizer, model = masked_lm.tokenizer, masked_lm.model
    text = "The person breathes the air."
    encoded = tokenizer(text, return_offsets_mapping=True)
    ids = encoded.input_ids
    subject = [i for i, (a, b) in enumerate(encoded.offset_mapping) if a >= 4 and b <= 10 and b > a]
    obj = [i for i, (a, b) in enumerate(encoded.offset_mapping) if a >= 24 and b <= 27 and b > a]
    assert len(subject) > 1  # a multi-token noun: all its pieces are masked at once

    def mean_logprob(masked: list[int], scored: list[int]) -> float:
        inputs = torch.tensor([ids])
        inputs[0, masked] = tokenizer.mask_token_id
        with torch.no_grad():
            logprobs = model(inputs).logits[0].log_softmax(-1)
        return float(np.mean([logprobs[p, ids[p]].item() for p in scored]))

    expected = mean_logprob(subject + obj, obj) + mean_logprob(subject, subject)
    zero_shot = ZeroShotScorer(masked_lm, "masked")
    (score,) = zero_shot.score([Triple("person", "breathe", "air")])
    # means of a tiny BERT's float32 token values (~4 nats, ulp 4.8e-7), a batch of 2 vs one pass: ~1e-6
    assert score == pytest.approx(expected, abs=1e-4)
    # exp turns the score's absolute error (<= 1e-4) into the same relative one
    assert zero_shot.to_probability(np.array([score]))[0] == pytest.approx(np.exp(expected), rel=1e-3)


def test_causal_raw_and_pmi_equal_direct_computations(causal_lm: CausalLMScorer) -> None:
    raw = ZeroShotScorer(causal_lm, "raw").score(TRIPLES)
    pmi = ZeroShotScorer(causal_lm, "pmi").score(TRIPLES)
    sentences = ["The person breathes the air.", "The cat catches the mouse.", "The air breathes the person."]
    for triple, sentence, raw_score, pmi_score in zip(TRIPLES, sentences, raw, pmi, strict=True):
        expected = causal_logprob(causal_lm, sentence)
        nouns = causal_logprob(causal_lm, f"The {triple.subject}") + causal_logprob(causal_lm, f"The {triple.object}")
        # Both: float32 token values of a tiny GPT-2 (~4 nats, ulp 4.8e-7), batches of 2 vs one plain pass each,
        # ~10 tokens a sentence: ~5e-6 a sum.
        assert raw_score == pytest.approx(expected, abs=1e-4)
        assert pmi_score == pytest.approx(expected - nouns, abs=1e-4)


def test_pmi_passive_adds_the_subject_read_after_verb_and_object(causal_lm: CausalLMScorer) -> None:
    pmi = ZeroShotScorer(causal_lm, "pmi").score(TRIPLES)
    passive = ZeroShotScorer(causal_lm, "pmi-passive").score(TRIPLES)
    openings = ["The air is breathed by the", "The mouse is caught by the", "The person is breathed by the"]
    for triple, opening, pmi_score, passive_score in zip(TRIPLES, openings, pmi, passive, strict=True):
        whole = f"{opening} {triple.subject}."
        subject_given_rest = causal_logprob(causal_lm, whole) - causal_logprob(causal_lm, opening)
        expected = pmi_score + subject_given_rest - causal_logprob(causal_lm, f"The {triple.subject}")
        assert passive_score == pytest.approx(expected, abs=1e-4)  # five such sums: ~2e-5 at most
    # one triple alone scores as it does in the batch, repeated triples alike; alone, its texts are padded
    # otherwise: five float32 sums of ~10 token values (~4 nats, ulp 4.8e-7) each, ~2e-5 at most
    alone = ZeroShotScorer(causal_lm, "pmi-passive").score([TRIPLES[1], TRIPLES[1]])
    np.testing.assert_allclose(alone, [passive[1], passive[1]], atol=1e-4)


def test_probabilities_keep_the_order_of_scores(causal_lm: CausalLMScorer) -> None:
    scores = np.array([-3.0, 0.0, 2.5])
    pmi = ZeroShotScorer(causal_lm, "pmi")
    np.testing.assert_allclose(pmi.to_probability(scores), 1 / (1 + np.exp(-scores)))  # float64 expit: an ulp
    assert "sigmoid" in pmi.probability_mapping
    passive = ZeroShotScorer(causal_lm, "pmi-passive")
    np.testing.assert_allclose(passive.to_probability(scores), 1 / (1 + np.exp(-scores)))  # float64 expit: an ulp
    raw = ZeroShotScorer(causal_lm, "raw")
    np.testing.assert_allclose(raw.to_probability(np.array([-2.0])), [np.exp(-2.0)])  # exact: the same np.exp
    assert isinstance(pmi, TripleScorer)
    assert pmi.score([]).shape == (0,)


def test_bad_variants_fail_clearly(causal_lm: CausalLMScorer) -> None:
    known = "known: masked, pmi, pmi-passive, raw"
    with pytest.raises(UnknownNameError, match=f"unknown zero-shot variant 'best'; {known}"):
        ZeroShotScorer(causal_lm, "best")  # type: ignore[arg-type]
    with pytest.raises(DataFormatError, match="the masked zero-shot formula needs a masked LM, got CausalLMScorer"):
        ZeroShotScorer(causal_lm, "masked")
    with pytest.raises(UnknownNameError, match="unknown zero-shot variant 'best'"):
        build_scorer("zero-shot:gpt2@best")


def test_the_spec_names_the_lm_and_the_variant(
    tmp_path: Path, causal_lm: CausalLMScorer, masked_lm: MaskedLMScorer
) -> None:
    for name, lm in (("causal", causal_lm), ("masked", masked_lm)):
        lm.model.save_pretrained(tmp_path / name)
        lm.tokenizer.save_pretrained(tmp_path / name)
    assert build_scorer(f"uncalibrated:zero-shot:{tmp_path / 'causal'}").variant == "pmi"
    assert build_scorer(f"uncalibrated:zero-shot:{tmp_path / 'causal'}@raw").variant == "raw"
    assert build_scorer(f"uncalibrated:zero-shot:{tmp_path / 'causal'}@pmi-passive").variant == "pmi-passive"
    assert build_scorer(f"uncalibrated:zero-shot:{tmp_path / 'masked'}").variant == "masked"
    assert build_scorer(f"uncalibrated:zero-shot:{tmp_path / 'masked'}@pmi").variant == "pmi"


@pytest.mark.integration
def test_default_zero_shot_is_the_offline_causal_lm_with_pmi() -> None:
    scorer = build_scorer("zero-shot")
    assert isinstance(uncalibrated(scorer), ZeroShotScorer) and uncalibrated(scorer).variant == "pmi"
    assert scorer.calibration == Calibration.load(data_dir() / "calibration" / "zero-shot.json")  # shipped
    assert np.isfinite(scorer.score(TRIPLES)).all()

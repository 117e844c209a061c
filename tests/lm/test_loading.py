from pathlib import Path

import pytest

from plausibility.errors import ResourceMissingError, UnknownNameError
from plausibility.lm import load_lm_scorer
from plausibility.lm.causal import CausalLMScorer
from plausibility.lm.loading import guess_kind
from plausibility.lm.masked import MaskedLMScorer


@pytest.fixture
def saved_models(tmp_path: Path, causal_model, causal_tokenizer, masked_model, masked_tokenizer) -> Path:
    causal_model.save_pretrained(tmp_path / "causal")
    causal_tokenizer.save_pretrained(tmp_path / "causal")
    masked_model.save_pretrained(tmp_path / "masked")
    masked_tokenizer.save_pretrained(tmp_path / "masked")
    return tmp_path


def test_the_kind_is_read_from_the_config(saved_models: Path) -> None:
    assert guess_kind(str(saved_models / "causal")) == "causal"
    assert guess_kind(str(saved_models / "masked")) == "masked"
    assert isinstance(load_lm_scorer(str(saved_models / "causal"), device="cpu"), CausalLMScorer)
    assert isinstance(load_lm_scorer(str(saved_models / "masked"), batch_size=2), MaskedLMScorer)


def test_a_loaded_scorer_scores_like_the_model_object(saved_models: Path, causal_scorer: CausalLMScorer) -> None:
    loaded = load_lm_scorer(str(saved_models / "causal"), kind="causal", device="cpu")
    texts = ["The dog is very cute."]
    # The weights round-trip exactly; the reloaded model may pick another attention kernel: float32 token values
    # (~6 nats, ulp 5e-7), ~7 summed.
    assert loaded.text_logprob(texts)[0] == pytest.approx(causal_scorer.text_logprob(texts)[0], abs=1e-5)


def test_unknown_kind_and_missing_model_fail_clearly(tmp_path: Path) -> None:
    with pytest.raises(UnknownNameError, match="unknown language-model kind 'seq2seq'; known: causal, masked"):
        load_lm_scorer("anything", kind="seq2seq")  # type: ignore[arg-type]
    with pytest.raises(ResourceMissingError, match="could not be loaded"):
        load_lm_scorer(str(tmp_path / "nowhere"), kind="masked")

"""The offline defaults resolve, load and compute; missing ones fail with an install hint."""

from pathlib import Path

import pytest
import torch

from plausibility import resources
from plausibility.errors import ResourceMissingError


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path))
    assert resources.cache_dir() == tmp_path


def test_other_names_pass_through_untouched() -> None:
    assert resources.encoder_path("roberta-base") == "roberta-base"
    assert resources.causal_lm_path("/models/gpt2") == "/models/gpt2"


def test_unknown_spacy_pipeline_says_how_to_install() -> None:
    with pytest.raises(ResourceMissingError, match="spaCy pipeline 'xx_no_such_model' is not installed; run: "):
        resources.load_spacy("xx_no_such_model")


def test_wordnet_shortest_hypernym_path_of_dentist() -> None:
    wordnet = resources.load_wordnet()
    assert wordnet.get_version() == "3.0"
    path = min(wordnet.synset("dentist.n.01").hypernym_paths(), key=lambda p: (len(p), [s.name() for s in p]))
    assert [s.name() for s in path[-3:]] == ["health_professional.n.01", "medical_practitioner.n.01", "dentist.n.01"]
    assert path[0].name() == "entity.n.01"


def test_glove_has_common_words() -> None:
    glove = resources.load_glove()
    assert glove.dim == 50
    assert "dentist" in glove.index


@pytest.mark.integration
def test_offline_encoder_gives_a_forward_pass() -> None:
    tokenizer, model = resources.load_encoder()
    with torch.inference_mode():
        hidden = model(**tokenizer(["The dentist breathes air."], return_tensors="pt")).last_hidden_state
    assert hidden.shape[-1] == 384


@pytest.mark.integration
def test_offline_causal_lm_gives_a_forward_pass() -> None:
    tokenizer, model = resources.load_causal_lm()
    with torch.inference_mode():
        logits = model(**tokenizer(["The dentist breathes air."], return_tensors="pt")).logits
    assert logits.shape[-1] == model.config.vocab_size
    assert torch.isfinite(logits).all()


def test_offline_spacy_parses() -> None:
    doc = resources.load_spacy()("The children ate apples.")
    assert [t.lemma_ for t in doc] == ["the", "child", "eat", "apple", "."]

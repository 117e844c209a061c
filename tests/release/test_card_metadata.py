"""A model's card is its folder's README.md, under a metadata block that Hugging Face's card parser reads."""

import json
from pathlib import Path

import pytest
from huggingface_hub import ModelCard

from plausibility.models.model_folder import ModelFolder
from plausibility.resources.paths import data_dir, shipped_models
from plausibility.scorers.shipped import read_card


@pytest.mark.parametrize("name", shipped_models())
def test_each_shipped_card_carries_metadata_a_hub_reads(name: str) -> None:
    folder = ModelFolder(data_dir() / "models" / name)
    assert folder.card.name == "README.md"
    data = ModelCard(folder.card.read_text(encoding="utf-8")).data
    evaluation = json.loads((folder.path / "evaluation.json").read_text())
    assert (data.license, data.library_name, data.language) == ("apache-2.0", "plausibility", "en")
    assert "sentence-transformers/all-MiniLM-L6-v2" in data.base_model
    assert {(r.dataset_type, r.dataset_split, r.metric_type) for r in data.eval_results} == {
        ("pep3k", "test", "roc_auc"),
        ("20q", "test", "roc_auc"),
    }
    for result in data.eval_results:
        assert result.metric_value == round(evaluation[f"{result.dataset_type}/test"]["estimate"], 3)
    assert read_card(name).startswith(f"# {name} ")  # `plausibility models NAME` shows the card, not the block


def test_the_default_names_both_models_it_is_built_on() -> None:
    card = ModelCard(ModelFolder(data_dir() / "models" / "default").card.read_text(encoding="utf-8"))
    assert card.data.base_model == ["sentence-transformers/all-MiniLM-L6-v2", "HuggingFaceTB/SmolLM2-135M-Instruct"]


def test_a_folder_an_earlier_version_wrote_keeps_its_card(tmp_path: Path) -> None:
    (tmp_path / "MODEL_CARD.md").write_text("# old 1.0\n")
    assert ModelFolder(tmp_path).card == tmp_path / "MODEL_CARD.md"
    (tmp_path / "README.md").write_text("---\nlicense: apache-2.0\n---\n\n# new 1.1\n")
    assert ModelFolder(tmp_path).card == tmp_path / "README.md"

"""The default scorer is the recorded choice of `scripts/choose_default_scorer.py`, else the zero-shot LM."""

import json
from pathlib import Path

import pytest

from plausibility.baselines.ngram import NgramScorer
from plausibility.errors import DataFormatError
from plausibility.resources import data_dir
from plausibility.scorers import default_scorer, load_scorer
from plausibility.scorers.default import DefaultChoice, default_choice
from plausibility.scoring.calibration import uncalibrated


@pytest.fixture()
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder with the bundled training triples and no shipped models."""
    (tmp_path / "training").mkdir()
    (tmp_path / "training" / "triples.parquet").write_bytes((data_dir() / "training" / "triples.parquet").read_bytes())
    (tmp_path / "PROVENANCE.md").write_text("copy\n")
    monkeypatch.setenv("PLAUSIBILITY_DATA", str(tmp_path))
    return tmp_path


def test_without_a_recorded_choice_the_zero_shot_lm_answers(data_copy: Path) -> None:
    assert default_choice() is None
    assert default_scorer() == "zero-shot"


def test_the_recorded_choice_is_what_load_scorer_builds(data_copy: Path) -> None:
    (data_copy / "models").mkdir()
    figures = {"ngram": {"pep3k": 0.7, "20q": 0.6}, "zero-shot": {"pep3k": 0.6, "20q": 0.6}}
    (data_copy / "models" / "default.json").write_text(
        json.dumps({"spec": "ngram", "valid_auc": figures, "measured": "by hand"})
    )
    assert default_choice() == DefaultChoice("ngram", figures, "by hand")
    assert default_choice().mean("ngram") == pytest.approx(0.65)
    assert type(uncalibrated(load_scorer())) is NgramScorer


def test_a_broken_choice_file_fails_in_one_line(data_copy: Path) -> None:
    (data_copy / "models").mkdir()
    path = data_copy / "models" / "default.json"
    path.write_text(json.dumps({"spec": "roberta", "valid_auc": {"ngram": {"pep3k": 0.5}}, "measured": "x"}))
    with pytest.raises(DataFormatError) as raised:
        default_scorer()
    assert str(raised.value) == (
        f"{path}: the chosen 'roberta' has no figures; measure the candidates again with "
        "scripts/choose_default_scorer.py"
    )
    path.write_text("{")
    with pytest.raises(DataFormatError, match=r"not a default-scorer choice \(Expecting property name"):
        default_scorer()


def test_the_shipped_choice_is_its_best_candidate_and_resolves_offline() -> None:
    from plausibility.models.model_folder import is_model_folder
    from plausibility.scorers.spec import parse_spec
    from plausibility.scoring.calibration import bundled_calibration_path

    choice = default_choice()
    assert choice is not None
    assert choice.mean(choice.spec) == max(choice.mean(spec) for spec in choice.valid_auc)
    spec = parse_spec(choice.spec)
    for part in spec.members or (spec,):
        # only what ships offline: the offline LM, the bundled counts, a shipped folder (or its net, `event:`)
        what = part.inner if part.kind == "event" else part
        assert what.kind in ("zero-shot", "ngram", "shipped") and what.source in (None, "roberta", "conceptmax")
        if what.kind == "shipped":
            assert is_model_folder(data_dir() / "models" / str(what.source))
        if part.kind != "shipped":  # its calibration ships, so its first probability fits nothing
            assert bundled_calibration_path(str(part)).is_file()
    assert spec.kind == "shipped" or bundled_calibration_path(choice.spec).is_file()

"""The default model is a shipped folder like any other: one thing however it is named, calibrated as shipped."""

from pathlib import Path

import numpy as np
import pytest
import yaml

import plausibility
from plausibility.models.model_folder import is_model_folder
from plausibility.resources.paths import cache_dir, data_dir, shipped_models
from plausibility.scorers.calibration_store import shipped_fit_path
from plausibility.scorers.shipped import DEFAULT_MODEL, ensemble_spec, model_folder, shipped_model
from plausibility.scorers.spec import parse_spec

EVENTS = [("person", "breathe", "air"), ("rock", "eat", "sandwich"), ("dentist", "breathe", "helium")]


def test_the_default_folder_names_an_ensemble_of_offline_parts_whose_calibrations_ship() -> None:
    spec = parse_spec(ensemble_spec(model_folder(DEFAULT_MODEL)))
    config = yaml.safe_load((model_folder(DEFAULT_MODEL) / "config.yaml").read_text())
    assert [member["spec"] for member in config["members"]] == [str(member) for member in spec.members]
    for part in spec.members:
        # only what ships offline: the offline LM, the bundled counts, a shipped folder (or its net, `event:`)
        what = part.inner if part.kind == "event" else part
        assert what.kind in ("zero-shot", "ngram", "shipped")
        if what.kind == "shipped":
            assert is_model_folder(data_dir() / "models" / str(what.source))
        assert shipped_fit_path(part).is_file()  # a member's first probability fits nothing
    model = shipped_model(DEFAULT_MODEL)
    assert model.spec == str(spec) and set(model.test_auc) == {"pep3k", "20q"}


@pytest.mark.integration
def test_load_scorer_with_no_name_is_the_default_and_an_equal_ensemble_finds_its_calibration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cache of its own, to see that nothing is fitted; the converted LM and the lexicon tables of the user's
    # cache are shared into it when built (a conversion takes ~20 s), so only calibrations would land here.
    for built in ("models", "lexicon"):
        if (cache_dir() / built).is_dir():
            (tmp_path / built).symlink_to(cache_dir() / built, target_is_directory=True)
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path))
    unnamed, named = plausibility.load_scorer(), plausibility.load_scorer("default")
    np.testing.assert_array_equal(unnamed.probability(EVENTS), named.probability(EVENTS))
    spec = parse_spec(ensemble_spec(model_folder(DEFAULT_MODEL)))
    weights = spec.weights or (1.0,) * len(spec.members)
    # the members in reverse order, every weight tripled: the same scorer, spelled another way
    parts = reversed(list(zip(spec.members, weights, strict=True)))
    respelled = "ensemble:" + "+".join(f"{3 * weight:g}*{member}" for member, weight in parts)
    scorer = plausibility.load_scorer(respelled)
    # Each member scores EVENTS in the same batches as before: only the float64 weights' normalisation and the
    # order of the weighted mean differ, a few ulps.
    np.testing.assert_allclose(scorer.probability(EVENTS), named.probability(EVENTS), rtol=1e-12)
    assert scorer.probability_mapping == named.probability_mapping
    assert "human judgements" in named.probability_mapping
    assert not (tmp_path / "calibration").exists()  # found as shipped: nothing fitted, nothing cached
    # its folder named by path (as an exported ensemble is) is the same model, with its own calibration
    by_path = plausibility.load_scorer(str(model_folder(DEFAULT_MODEL)))
    np.testing.assert_array_equal(by_path.probability(EVENTS), named.probability(EVENTS))


def test_every_shipped_folder_is_a_model_with_a_version_and_card() -> None:
    assert DEFAULT_MODEL in shipped_models()
    for name in shipped_models():
        model = shipped_model(name)
        assert model.version != "unversioned" and model.summary
        assert (model.folder / "MODEL_CARD.md").read_text().startswith(f"# {name} {model.version}\n")

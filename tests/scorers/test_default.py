"""The default model is a shipped folder like any other: one thing however it is named, calibrated as shipped."""

from pathlib import Path

import numpy as np
import pytest
import torch

import plausibility
from plausibility.devices import fast_precision
from plausibility.models.model_folder import ModelFolder
from plausibility.resources.paths import cache_dir, data_dir, shipped_models
from plausibility.scorers.calibration_store import shipped_fit_path
from plausibility.scorers.shipped import (
    DEFAULT_MODEL,
    member_specs,
    model_folder,
    read_card,
    shipped_model,
    stack_config,
)
from plausibility.scorers.spec import parse_spec

EVENTS = [("person", "breathe", "air"), ("rock", "eat", "sandwich"), ("dentist", "breathe", "helium")]


def test_the_default_folder_is_a_stack_of_offline_parts_whose_calibrations_ship() -> None:
    folder = model_folder(DEFAULT_MODEL)
    config = stack_config(folder)
    assert config is not None and member_specs(folder) == config["members"]
    for member in config["members"]:
        part = parse_spec(member)
        # only what ships offline: the offline LM, the bundled counts, a shipped folder (or its net, `event:`)
        what = part.inner if part.kind == "event" else part
        assert what.kind in ("zero-shot", "ngram", "shipped")
        if what.kind == "shipped":
            assert ModelFolder(data_dir() / "models" / str(what.source)).holds_net
        assert shipped_fit_path(part).is_file()  # a member's first probability fits nothing
    # a calibration for each precision its language model runs in
    assert config["precisions"] == ["float32", "bfloat16"]
    assert {"calibration.json", "calibration-bfloat16.json"} <= {path.name for path in folder.iterdir()}
    model = shipped_model(DEFAULT_MODEL)
    assert model.spec == "stack:" + "+".join(f["feature"] for f in config["features"])
    assert set(model.test_auc) == {"pep3k", "20q"}


@pytest.mark.integration
def test_load_scorer_with_no_name_is_the_default_in_the_precision_this_machine_gives_it(
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
    assert named.precision == fast_precision(torch.device("cpu"))
    assert "human judgements" in named.probability_mapping
    # each precision reads its own calibration, and the two give a user nearly the same probability
    other = "float32" if named.precision == "bfloat16" else "bfloat16"
    switched = plausibility.load_scorer("default", dtype=other)
    assert switched.precision == other
    np.testing.assert_allclose(switched.probability(EVENTS), named.probability(EVENTS), atol=0.05)
    assert not (tmp_path / "calibration").exists()  # found as shipped: nothing fitted, nothing cached
    # its folder named by path (as an exported model is) is the same model
    by_path = plausibility.load_scorer(str(model_folder(DEFAULT_MODEL)))
    np.testing.assert_array_equal(by_path.probability(EVENTS), named.probability(EVENTS))


def test_every_shipped_folder_is_a_model_with_a_version_and_card() -> None:
    assert DEFAULT_MODEL in shipped_models()
    for name in shipped_models():
        model = shipped_model(name)
        assert model.version != "unversioned" and model.summary
        assert read_card(name).startswith(f"# {name} {model.version}\n")

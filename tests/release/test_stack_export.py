"""Exporting a stack: its regression fitted on the judged valid halves, one calibration per precision."""

import numpy as np
import pytest
import yaml

import plausibility
from plausibility.errors import PlausibilityError
from plausibility.release.export import export_model
from plausibility.release.stack_export import judged_valid_events, parse_stack_source

SOURCE = "stack:ngram+reversal:ngram+restriction"


def test_a_stack_export_fits_its_regression_on_the_judged_valid_halves(tmp_path):
    from sklearn.linear_model import LogisticRegression

    exported = export_model(SOURCE, tmp_path / "stacked", evaluate=False, plain_weight=3.0)
    folder = exported.folder
    config = yaml.safe_load((folder / "config.yaml").read_text())
    # no language model: one calibration serves both precisions
    assert config["members"] == ["ngram"] and config["precisions"] == ["float32"]
    assert [f["feature"] for f in config["features"]] == ["ngram", "reversal:ngram", "restriction"]
    assert sorted(path.name for path in folder.iterdir()) == [
        "README.md", "calibration.json", "config.yaml", "restriction.json",
    ]  # fmt: skip
    # the folder's probability is the regression's own, refitted here on the features the loaded stack gives
    triples, labels, weights, described = judged_valid_events(3.0)
    assert "160 of plain valid" in described and weights.max() == 3.0
    loaded = plausibility.load_scorer(str(folder), dtype="float32")
    values = loaded.scorer.scorer.feature_values(triples)
    refit = LogisticRegression(C=np.inf, tol=1e-10, max_iter=10_000).fit(values, labels, sample_weight=weights)
    np.testing.assert_allclose(
        loaded.probability(triples[:50], as_given=True), refit.predict_proba(values[:50])[:, 1], atol=1e-4
    )
    np.testing.assert_allclose([f["coefficient"] for f in config["features"]], refit.coef_[0], rtol=1e-3, atol=1e-4)
    assert "restriction" in (folder / "README.md").read_text()
    # bfloat16 asked for, it falls back to float32's calibration: the same probabilities
    halved = plausibility.load_scorer(str(folder), dtype="bfloat16")
    np.testing.assert_array_equal(
        halved.probability(triples[:50], as_given=True), loaded.probability(triples[:50], as_given=True)
    )


def test_a_stack_source_needs_features():
    assert parse_stack_source("stack:a + reversal:a+restriction") == ["a", "reversal:a", "restriction"]
    with pytest.raises(PlausibilityError, match="needs features"):
        parse_stack_source("stack:")

"""`scripts/ensemble_weights.py`: batched AUCs equal one `roc_auc` per weighting, and weightings print as SPECs."""

import importlib.util
from pathlib import Path

import numpy as np

from plausibility.evaluation.metrics import roc_auc
from plausibility.scorers.spec import parse_spec

SCRIPT = Path(__file__).parents[2] / "scripts" / "ensemble_weights.py"


def _script():
    spec = importlib.util.spec_from_file_location("ensemble_weights", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_weighting_has_the_auc_of_its_own_scores() -> None:
    rng = np.random.default_rng(0)
    log_odds = rng.integers(-3, 4, size=(3, 40)).astype(float)  # integer log-odds: many tied scores
    labels = np.array([1, 0] * 20)
    weights = np.array([[1, 0, 0], [0, 2, 1], [1, 1, 1], [0.5, 0, 3], [2, 1, 0]])
    batched = _script().weighted_aucs(weights, log_odds, labels, chunk=2)
    np.testing.assert_allclose(batched, [roc_auc(labels, row @ log_odds) for row in weights], rtol=0, atol=1e-12)


def test_a_weighting_prints_as_the_spec_of_its_kept_members_smallest_weight_one() -> None:
    members = [parse_spec("conceptmax"), parse_spec("zero-shot:@pmi-passive"), parse_spec("ngram")]
    script = _script()
    assert script.weighted_spec(members, (2.0, 0.0, 4.0)) == "ensemble:conceptmax+2*ngram"
    assert script.weighted_spec(members, (0.0, 1.5, 0.0)) == "zero-shot:@pmi-passive"


def test_the_first_weighting_with_every_probe_on_its_side_is_found_and_calibrated_as_its_spec() -> None:
    from plausibility.scoring.calibration import fit_platt

    rng = np.random.default_rng(1)
    labels = [1] * 50 + [0] * 50
    # member 0 separates the slice well; member 1 is noise but says the probe is implausible
    slice_log_odds = np.vstack([np.r_[rng.normal(1, 1, 50), rng.normal(-1, 1, 50)], rng.normal(0, 1, 100)])
    probe_log_odds = np.array([[2.0], [-30.0]])
    ranked = np.array([[1.0, 0.0], [0.9, 0.1], [0.5, 0.5]])
    row, probabilities = _script().first_on_their_sides(ranked, slice_log_odds, labels, probe_log_odds, [0])
    expected = fit_platt(ranked[row] @ slice_log_odds, labels, "x").probability(ranked[row] @ probe_log_odds)
    assert row == 1 and probabilities[0] < 0.5
    np.testing.assert_allclose(probabilities, expected)
    assert _script().first_on_their_sides(ranked[:1], slice_log_odds, labels, probe_log_odds, [0]) is None


def test_a_probe_needs_three_words_and_a_label() -> None:
    import pytest

    from plausibility.triple import Triple

    assert _script().parse_probe("Rock eat sandwich=0") == (Triple("rock", "eat", "sandwich"), 0)
    with pytest.raises(SystemExit, match="give 'S V O=1'"):
        _script().parse_probe("rock eat=0")

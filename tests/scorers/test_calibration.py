"""Platt calibration: a monotone map fitted on labelled scores, found by what a scorer is, fitted once."""

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import calibration_curve

from plausibility.errors import DataFormatError, PlausibilityError
from plausibility.lexicon.training_lexicon import TrainingLexicon
from plausibility.metrics import expected_calibration_error, roc_auc
from plausibility.scorers import calibration_store
from plausibility.scorers.calibrated import CalibratedHeldOutScorer, CalibratedScorer, CalibratedSenseScorer, calibrate
from plausibility.scorers.calibration import Calibration, calibration_slice, fit_calibration, fit_platt
from plausibility.scorers.calibration_store import calibration_for
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.spec import parse_spec
from plausibility.triple import Triple

PAIRS = Path(__file__).parents[1] / "fixtures" / "training" / "pairs.parquet"


class WordLengthScorer:
    """Log-score-like scores far below zero: the length of the event's text less 60 (attested events run longer)."""

    probability_mapping = "exp of the score"
    lexicon = None

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return np.array([len(str(t)) - 60.0 for t in triples])

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return np.exp(scores)


class HalvedWhenHeldOut(WordLengthScorer):
    """As if leaving each event out of what the scorer counted halved its score."""

    def held_out_score(self, triples: Sequence[Triple]) -> np.ndarray:
        return self.score(triples) / 2


class SenseReader(WordLengthScorer):
    def score_abstractions(self, abstractions: Sequence) -> np.ndarray:
        return np.zeros(len(abstractions))


def test_platt_parameters_match_the_ones_computed_by_hand() -> None:
    # Two score values, each a quarter "wrong": the maximum-likelihood fit passes through both rates exactly,
    # slope + intercept = logit(3/4) = ln 3 and -slope + intercept = logit(1/4) = -ln 3.
    scores = [-1.0] * 4 + [1.0] * 4
    labels = [0, 0, 0, 1, 1, 1, 1, 0]
    fitted = fit_platt(scores, labels, "hand-made")
    # These four: lbfgs stops at a gradient below tol=1e-10, within ~1e-9 of the exact optimum.
    assert fitted.slope == pytest.approx(math.log(3), abs=1e-6)
    assert fitted.intercept == pytest.approx(0.0, abs=1e-6)
    assert fitted.crossing == pytest.approx(0.0, abs=1e-6)
    assert fitted.probability(np.array([-1.0, 0.0, 1.0])) == pytest.approx([0.25, 0.5, 0.75], abs=1e-6)
    # both bins hold exactly their rate (up to the fit's ~1e-9)
    assert expected_calibration_error(labels, fitted.probability(np.array(scores))) == pytest.approx(0.0, abs=1e-6)


def test_a_shifted_scale_moves_the_crossing_with_it() -> None:
    # The same set shifted by -30 (a log score) crosses 0.5 at -30: the fit is on the raw scale.
    fitted = fit_platt([-31.0] * 4 + [-29.0] * 4, [0, 0, 0, 1, 1, 1, 1, 0], "shifted")
    assert fitted.crossing == pytest.approx(-30.0, abs=1e-5)  # the fit's ~1e-9, mapped back from a centre of -30
    assert fitted.slope == pytest.approx(math.log(3), abs=1e-6)  # lbfgs to tol=1e-10: ~1e-9


def test_calibrated_scores_keep_order_auc_and_range() -> None:
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, size=400)
    scores = rng.normal(size=400) + 1.5 * labels - 40.0
    fitted = fit_platt(scores, labels, "noisy")
    probabilities = fitted.probability(scores)
    assert np.all((probabilities >= 0) & (probabilities <= 1))
    order = np.argsort(scores)
    assert np.all(np.diff(probabilities[order]) >= 0)
    assert roc_auc(labels, probabilities) == roc_auc(labels, scores)
    # exp of a log score near -40 says 0 for everything
    assert expected_calibration_error(labels, probabilities) < 0.1 < expected_calibration_error(labels, np.exp(scores))


def test_ece_is_the_weighted_gap_of_calibration_curve_bins() -> None:
    rng = np.random.default_rng(1)
    probabilities = rng.uniform(size=500)
    labels = (rng.uniform(size=500) < probabilities**2).astype(int)
    truth, predicted = calibration_curve(labels, probabilities, n_bins=10)
    counts = np.bincount(np.searchsorted(np.linspace(0, 1, 11)[1:-1], probabilities), minlength=10)
    expected = float(np.sum(counts[counts > 0] / 500 * np.abs(truth - predicted)))
    assert expected_calibration_error(labels, probabilities) == pytest.approx(expected, abs=1e-12)  # float64 bin sums
    assert expected_calibration_error([1, 0], [1.0, 0.0]) == 0.0
    assert expected_calibration_error([1, 1], [0.0, 0.0]) == 1.0


def test_a_scorer_ranking_negatives_first_is_not_calibrated() -> None:
    with pytest.raises(PlausibilityError) as raised:
        fit_platt([-1.0] * 4 + [1.0] * 4, [1, 1, 1, 0, 0, 0, 0, 1], "anti")  # slope -ln 3
    assert str(raised.value) == (
        "anti: fitted slope -1.1 is not positive (the scorer does not rank the positive events above the negative "
        "ones); a monotone calibration needs a better model"
    )
    with pytest.raises(DataFormatError, match="calibration needs finite scores of both labels"):
        fit_platt([1.0, 2.0], [1, 1], "one class")


def test_the_slice_is_seeded_training_pairs_and_their_negatives() -> None:
    triples, labels, description = calibration_slice(PAIRS, 10, seed=3)
    table = pd.read_parquet(PAIRS)
    rows = np.sort(np.random.default_rng(3).choice(len(table), size=10, replace=False))
    assert triples[:10] == [Triple(*table.iloc[i, :3]) for i in rows]
    assert triples[10:] == [Triple(*table.iloc[i, 3:6]) for i in rows]
    assert labels == [1] * 10 + [0] * 10
    assert description == f"10 of the {len(table)} pairs of pairs.parquet, drawn by numpy default_rng(3)"
    assert calibration_slice(PAIRS, 10, seed=3)[0] == triples


def test_calibrated_scorer_changes_probabilities_only(tmp_path: Path) -> None:
    inner = WordLengthScorer()
    fitted = fit_calibration(inner, PAIRS, 50)
    wrapped = calibrate(inner, fitted)
    assert type(wrapped) is CalibratedScorer
    events = [Triple("dog", "eat", "bone"), Triple("dentist", "breathe", "helium")]
    assert wrapped.score(events).tolist() == inner.score(events).tolist()
    # float64: slope * crossing + intercept cancels to ~1e-14, so 0.5 within ~1e-14
    assert wrapped.to_probability(np.array([fitted.crossing])) == pytest.approx([0.5])
    assert wrapped.probability_mapping == (
        "Platt-calibrated on training pairs (50 attested events against their pseudo-negatives)"
    )
    assert fitted.fitted_on == "50 of the 160 pairs of pairs.parquet, drawn by numpy default_rng(0)"
    fitted.save(tmp_path / "calibration.json")
    assert Calibration.load(tmp_path / "calibration.json") == fitted
    assert type(calibrate(SenseReader(), fitted)) is CalibratedSenseScorer
    assert type(calibrate(HalvedWhenHeldOut(), fitted)) is CalibratedHeldOutScorer


def test_a_scorer_that_can_leave_events_out_is_fitted_on_its_held_out_scores() -> None:
    in_sample = fit_calibration(WordLengthScorer(), PAIRS, 50)
    held_out = fit_calibration(HalvedWhenHeldOut(), PAIRS, 50)
    # Both exact in fact: halving the scores halves their mean and spread exactly, so the standardised fit is the same.
    assert held_out.slope == pytest.approx(2 * in_sample.slope)
    assert held_out.intercept == pytest.approx(in_sample.intercept)
    assert held_out.fitted_on == in_sample.fitted_on + ", each event left out of any counts it is scored from"
    wrapped = calibrate(HalvedWhenHeldOut(), in_sample)  # read through the wrapper, as an ensemble does
    through = fit_calibration(wrapped, PAIRS, 50)
    assert (through.slope, through.intercept, through.fitted_on) == (
        held_out.slope,
        held_out.intercept,
        held_out.fitted_on,
    )


def test_concept_max_stays_concept_max_around_the_calibrated_scorer() -> None:
    lexicon = TrainingLexicon()
    fitted = Calibration(2.0, 1.0, 10, "made up")
    wrapped = calibrate(ConceptMax(WordLengthScorer(), lexicon, memory=7), fitted)
    assert isinstance(wrapped, ConceptMax) and isinstance(wrapped.searched, CalibratedScorer)
    assert (wrapped.lexicon, wrapped.memory) == (lexicon, 7)
    assert wrapped.to_probability(np.array([-0.5])) == pytest.approx([0.5])  # exact: 2 * -0.5 + 1 is 0


def test_a_broken_calibration_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "calibration.json"
    path.write_text(
        json.dumps({"slope": -1.0, "intercept": 0.0, "n": 2, "slice": "x", "ece_before": 0, "ece_after": 0})
    )
    with pytest.raises(DataFormatError) as raised:
        Calibration.load(path)
    assert str(raised.value) == f"{path}: slope must be positive and both parameters finite; export the model again"


def test_every_spec_is_calibrated_once_and_reads_the_fit_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plausibility.resources.paths import data_dir
    from plausibility.scorers.registry import build_scorer

    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path))
    # the bundled counts by their path: a SPEC whose fit does not ship (the bare `ngram`'s does)
    spec = f"ngram:{data_dir() / 'training' / 'triples.parquet'}"
    scorer = build_scorer(spec)
    assert isinstance(scorer, CalibratedScorer)
    assert not (tmp_path / "calibration").exists()  # fitted on the first probability, not on loading
    events = [Triple("dog", "eat", "bone"), Triple("dentist", "breathe", "helium")]
    own = build_scorer(f"uncalibrated:{spec}")
    assert scorer.score(events).tolist() == own.score(events).tolist()
    assert scorer.calibration.n == 2000 and scorer.calibration.fitted_on.startswith("1000 of the ")
    assert scorer.calibration.slope > 0
    # exact: the same scores (equal above) through the same float64 map
    np.testing.assert_allclose(
        scorer.to_probability(scorer.score(events)), scorer.calibration.probability(own.score(events))
    )
    (cached,) = (tmp_path / "calibration").iterdir()
    assert Calibration.load(cached) == scorer.calibration
    cached.write_text(json.dumps({**json.loads(cached.read_text()), "slope": 2.0}))
    assert build_scorer(spec).calibration.slope == 2.0  # read back, not fitted again
    assert own.probability_mapping == "exp of the log score: the smoothed estimate of P(s, o | v) itself"


def test_the_offline_lm_ships_its_calibration() -> None:
    from plausibility.resources.paths import data_dir
    from plausibility.scorers.calibration_store import shipped_fit_path

    assert shipped_fit_path(parse_spec("zero-shot")) == data_dir() / "calibration" / "zero-shot.json"
    shipped = Calibration.load(shipped_fit_path(parse_spec("zero-shot")))
    assert shipped.n == 2000 and shipped.target == "pairs"


def test_a_scorer_worse_than_chance_keeps_its_own_probabilities(caplog: pytest.LogCaptureFixture) -> None:
    inner = WordLengthScorer()
    wrapped = calibrate(inner, lambda: fit_platt([1.0, 2.0, 3.0, 4.0], [1, 1, 0, 0], "toy slice"))
    scores = np.array([0.5, 3.0])
    assert wrapped.calibration is None
    assert wrapped.to_probability(scores).tolist() == inner.to_probability(scores).tolist()
    assert re.fullmatch(
        r"exp of the score \(not calibrated: toy slice: fitted slope -[0-9.]+ is not positive \(the scorer does "
        r"not rank the positive events above the negative ones\); a monotone calibration needs a better model\)",
        wrapped.probability_mapping,
    )
    assert "its own probabilities are kept" in caplog.text


def test_a_rebuilt_training_set_is_fitted_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from plausibility.resources.paths import data_dir
    from plausibility.scorers.registry import build_scorer

    data = tmp_path / "data"
    (data / "training").mkdir(parents=True)
    (data / "PROVENANCE.md").write_text("copy\n")
    (data / "training" / "triples.parquet").write_bytes((data_dir() / "training" / "triples.parquet").read_bytes())
    pairs = pd.read_parquet(PAIRS)
    pairs.to_parquet(data / "training" / "pairs.parquet")
    monkeypatch.setenv("PLAUSIBILITY_DATA", str(data))
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    first = build_scorer("ngram").calibration
    pairs.iloc[: len(pairs) // 2].to_parquet(data / "training" / "pairs.parquet")  # the set rebuilt, smaller
    second = build_scorer("ngram").calibration
    assert len(list((tmp_path / "cache" / "calibration").iterdir())) == 2
    assert first.fitted_on != second.fitted_on


def test_a_held_out_fit_is_cached_apart_from_an_in_sample_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calibration_store, "DEFAULT_CALIBRATION_PAIRS", 50)  # the slice the tests above fit on
    data = tmp_path / "data"
    (data / "training").mkdir(parents=True)
    (data / "PROVENANCE.md").write_text("copy\n")
    pd.read_parquet(PAIRS).to_parquet(data / "training" / "pairs.parquet")
    monkeypatch.setenv("PLAUSIBILITY_DATA", str(data))
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    same = parse_spec(f"ngram:{PAIRS}")
    in_sample = calibration_for(same, WordLengthScorer())
    held_out = calibration_for(same, HalvedWhenHeldOut())
    assert held_out.slope == pytest.approx(2 * in_sample.slope)  # exact in fact: halved scores, the same fit
    assert len(list((tmp_path / "cache" / "calibration").iterdir())) == 2


def test_a_replaced_shipped_model_is_fitted_afresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(calibration_store, "DEFAULT_CALIBRATION_PAIRS", 50)
    data = tmp_path / "data"
    (data / "training").mkdir(parents=True)
    (data / "models" / "shipped").mkdir(parents=True)
    (data / "PROVENANCE.md").write_text("copy\n")
    pd.read_parquet(PAIRS).to_parquet(data / "training" / "pairs.parquet")
    monkeypatch.setenv("PLAUSIBILITY_DATA", str(data))
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    (data / "models" / "shipped" / "config.yaml").write_text("format: plausibility-model/1\n")
    (data / "training" / "triples.parquet").write_bytes(b"counts")
    weights = data / "models" / "shipped" / "model.safetensors"
    weights.write_bytes(b"first")
    spec = parse_spec("ensemble:shipped+ngram")
    calibration_for(spec, WordLengthScorer())
    calibration_for(parse_spec("ensemble:ngram+shipped"), WordLengthScorer())  # read from the cache: the same scorer
    assert len(list((tmp_path / "cache" / "calibration").iterdir())) == 1
    weights.write_bytes(b"a retrained model")  # what an upgrade of the package does
    calibration_for(spec, WordLengthScorer())
    assert len(list((tmp_path / "cache" / "calibration").iterdir())) == 2

"""`ensemble:`: the mean of its members' calibrated log-odds, built from a SPEC, with clear errors."""

from pathlib import Path

import numpy as np
import pytest

from plausibility.baselines.ngram import BigramCounts, NgramScorer
from plausibility.corpus.artefacts import read_counts
from plausibility.errors import PlausibilityError
from plausibility.scorers.calibrated import CalibratedScorer, calibrate, uncalibrated
from plausibility.scorers.calibration import Calibration
from plausibility.scorers.calibration_store import shipped_fit_path
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.ensemble import EnsembleScorer
from plausibility.scorers.registry import build_scorer
from plausibility.scorers.spec import parse_spec
from plausibility.triple import Triple

EVENTS = [Triple("dog", "chase", "cat"), Triple("person", "eat", "apple"), Triple("stone", "eat", "air")]


@pytest.fixture
def triples(fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fixture triples, with a private cache for the calibrations that building scorers on them fits."""
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path / "cache"))
    return fixtures / "ngram_triples.tsv"


def _calibration(slope: float, intercept: float) -> Calibration:
    return Calibration(slope, intercept, n=2, fitted_on="by hand")


def test_the_score_is_the_mean_of_the_members_log_odds(fixtures: Path) -> None:
    ngram = NgramScorer(BigramCounts.from_triples(read_counts(fixtures / "ngram_triples.tsv")))
    steep, shallow = _calibration(2.0, 1.0), _calibration(0.5, -3.0)
    ensemble = EnsembleScorer([calibrate(ngram, steep), calibrate(ngram, shallow)], ["a", "b"])

    own = ngram.score(EVENTS)
    expected = ((2.0 * own + 1.0) + (0.5 * own - 3.0)) / 2
    # float64 sigmoid, then logit, of negative log-odds: they come back to ~1e-15 relative
    np.testing.assert_allclose(ensemble.score(EVENTS), expected, rtol=1e-9)
    # float64 expit vs the written formula: a few ulps
    np.testing.assert_allclose(ensemble.to_probability(ensemble.score(EVENTS)), 1 / (1 + np.exp(-expected)))
    assert ensemble.probability_mapping == "sigmoid of the mean calibrated log-odds of a, b"


def test_weights_share_the_mean_and_print_in_the_mapping(fixtures: Path) -> None:
    ngram = NgramScorer(BigramCounts.from_triples(read_counts(fixtures / "ngram_triples.tsv")))
    steep, shallow = _calibration(2.0, 1.0), _calibration(0.5, -3.0)
    members = [calibrate(ngram, steep), calibrate(ngram, shallow)]
    ensemble = EnsembleScorer(members, ["a", "b"], [3.0, 1.0])

    own = ngram.score(EVENTS)
    # float64 sigmoid, then logit, of negative log-odds: they come back to ~1e-15 relative
    np.testing.assert_allclose(ensemble.score(EVENTS), (3 * (2.0 * own + 1.0) + (0.5 * own - 3.0)) / 4, rtol=1e-9)
    assert ensemble.probability_mapping == "sigmoid of the weighted mean calibrated log-odds of a (0.75), b (0.25)"
    # weights count up to a common factor (exact: 6/8, 2/8 and 3/4, 1/4 are the same binary fractions)
    np.testing.assert_allclose(EnsembleScorer(members, ["a", "b"], [6, 2]).score(EVENTS), ensemble.score(EVENTS))


def test_held_out_scores_leave_events_out_of_the_members_that_counted_them(fixtures: Path) -> None:
    ngram = NgramScorer(BigramCounts.from_triples(read_counts(fixtures / "ngram_triples.tsv")))
    steep, shallow = _calibration(2.0, 1.0), _calibration(0.5, -3.0)
    ensemble = EnsembleScorer([calibrate(ngram, steep), calibrate(ngram, shallow)], ["a", "b"], [3, 1])

    left_out = ngram.held_out_score(EVENTS)
    assert left_out[0] < ngram.score(EVENTS)[0]  # dog chase cat is counted
    expected = (3 * (2.0 * left_out + 1.0) + (0.5 * left_out - 3.0)) / 4
    np.testing.assert_allclose(ensemble.held_out_score(EVENTS), expected, rtol=1e-9)  # float64 sigmoid-logit trip


def test_a_weighted_spec_parses_prints_back_and_ships_under_a_portable_name(fixtures: Path) -> None:
    triples = fixtures / "ngram_triples.tsv"
    spec = parse_spec(f"ensemble:2*ngram:{triples}+resnik:{triples}+0.5*zero-shot")
    assert spec.weights == (2.0, 1.0, 0.5)
    assert [member.kind for member in spec.members] == ["ngram", "resnik", "zero-shot"]
    assert str(spec) == f"ensemble:2*ngram:{triples}+resnik:{triples}+0.5*zero-shot"
    assert parse_spec("ensemble:1*roberta+1.0*zero-shot") == parse_spec("ensemble:roberta+zero-shot")
    shipped = shipped_fit_path(parse_spec("ensemble:roberta+4*zero-shot"))
    assert shipped.name == "ensemble_0.2xroberta+0.8xzero-shot.json"
    assert shipped_fit_path(parse_spec("ensemble:2*zero-shot+0.5*roberta")) == shipped  # the same scorer


def test_a_weighted_spec_builds_a_weighted_ensemble(triples: Path) -> None:
    scorer = build_scorer(f"uncalibrated:ensemble:3*ngram:{triples}+resnik:{triples}")
    assert isinstance(scorer, EnsembleScorer)
    np.testing.assert_allclose(scorer.weights, [0.75, 0.25])  # exact: 3/4 and 1/4 are binary fractions
    log_odds = scorer.member_log_odds(EVENTS)
    # float64 dot product vs the written sum: an ulp or two
    np.testing.assert_allclose(scorer.score(EVENTS), 0.75 * log_odds[0] + 0.25 * log_odds[1])


@pytest.mark.parametrize("weight", ["0", "-1", "nan", "inf"])
def test_a_weight_that_is_not_positive_is_a_one_line_error(weight: str) -> None:
    message = rf"^ensemble weight '{weight}' in '{weight}\*ngram' must be a positive number, e.g. 2\*zero-shot$"
    with pytest.raises(PlausibilityError, match=message):
        parse_spec(f"ensemble:{weight}*ngram+zero-shot")


def test_a_saturated_member_gives_finite_scores(fixtures: Path) -> None:
    ngram = NgramScorer(BigramCounts.from_triples(read_counts(fixtures / "ngram_triples.tsv")))
    certain = calibrate(ngram, _calibration(1e6, 1e6))
    ensemble = EnsembleScorer([certain, calibrate(ngram, _calibration(1.0, 0.0))], ["a", "b"])
    assert np.isfinite(ensemble.score(EVENTS)).all()


def test_a_spec_builds_every_member_calibrated_and_prints_back(triples: Path) -> None:
    text = f"ensemble:ngram:{triples}+resnik:{triples}"
    assert str(parse_spec(text)) == text
    assert [member.kind for member in parse_spec(text).members] == ["ngram", "resnik"]

    scorer = build_scorer(text)
    assert isinstance(scorer, CalibratedScorer) and isinstance(scorer.scorer, EnsembleScorer)
    assert all(isinstance(member, CalibratedScorer) for member in scorer.scorer.members)
    # the ensemble's own map is fitted too, and ranks as its mean log-odds do
    assert (
        0 <= scorer.to_probability(scorer.score(EVENTS)).min() <= scorer.to_probability(scorer.score(EVENTS)).max() <= 1
    )
    raw = build_scorer(f"uncalibrated:{text}")
    assert isinstance(raw, EnsembleScorer)
    np.testing.assert_allclose(raw.score(EVENTS), scorer.score(EVENTS))  # the same members, fits and float64 ops


def test_a_conceptmax_member_wraps_only_its_own_part(fixtures: Path) -> None:
    triples = fixtures / "ngram_triples.tsv"
    members = parse_spec(f"ensemble:conceptmax:ngram:{triples}+ngram:{triples}").members
    assert [member.kind for member in members] == ["conceptmax", "ngram"]
    assert members[0].inner.kind == "ngram"


def test_members_that_read_one_source_share_one_load(triples: Path) -> None:
    scorer = build_scorer(f"uncalibrated:ensemble:event:ngram:{triples}+conceptmax:ngram:{triples}+ngram:{triples}")
    event, maximum, ngram = (uncalibrated(member) for member in scorer.members)
    assert isinstance(maximum, ConceptMax) and maximum.searched is event is ngram
    # each wrapper still reads the shared counts its own way
    assert np.all(maximum.score(EVENTS) >= ngram.score(EVENTS))


@pytest.mark.parametrize("text", ["ensemble", "ensemble:", "ensemble:ngram", "ensemble:ngram+"])
def test_fewer_than_two_members_is_a_one_line_error(text: str) -> None:
    with pytest.raises(PlausibilityError, match=r"^ensemble needs two or more scorers joined by \+"):
        parse_spec(text)

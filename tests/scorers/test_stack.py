"""The stacked scorer: a logistic regression over members' log-odds, role-reversal contrasts and the subject
restriction, read from a folder with one calibration per precision, and the reasons it gives in words."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch
import yaml
from scipy.special import expit

import plausibility
from plausibility.devices import fast_precision, has_bfloat16_units
from plausibility.errors import DataFormatError, PlausibilityError
from plausibility.lexicon.animacy import Animacy
from plausibility.lexicon.hierarchy import Hierarchy
from plausibility.scorers.calibration import Calibration
from plausibility.scorers.ensemble import log_odds
from plausibility.scorers.registry import build_scorer
from plausibility.scorers.restriction import MOSTLY, SMOOTHING, SubjectRestriction
from plausibility.scorers.shipped import STACK_FORMAT
from plausibility.scorers.stack import RESTRICTION, StackScorer, reversal, stack_of
from plausibility.triple import Triple

COUNTS = pd.DataFrame(
    [
        ("person", "eat", "bread", 3),
        ("dog", "eat", "bone", 1),
        ("rock", "eat", "soil", 1),
        ("rain", "cover", "rock", 4),
    ],
    columns=["subject", "verb", "object", "count"],
)
EVENTS = [Triple("rock", "eat", "bread"), Triple("person", "eat", "bread"), Triple("xqzzyplok", "eat", "bread")]


@pytest.fixture(scope="module")
def animacy() -> Animacy:
    return Animacy(Hierarchy.load())


def test_the_restriction_counts_animate_subjects_per_verb_and_smooths_them(animacy, tmp_path):
    restriction = SubjectRestriction.count(COUNTS, animacy)
    assert restriction.counts == {"eat": (4, 5), "cover": (0, 4)}
    assert restriction.overall == pytest.approx(4 / 9)
    share = (4 + SMOOTHING * 4 / 9) / (5 + SMOOTHING)
    assert restriction.share("eat") == pytest.approx(share)
    assert restriction.share("fly") == pytest.approx(4 / 9)  # unseen: the overall share
    # only a subject that is neither a person nor an animal gets the verb's share; a word WordNet lacks gets 0
    np.testing.assert_allclose(restriction.feature(EVENTS, animacy), [share - MOSTLY, 0.0, 0.0])
    # a verb that takes any subject restricts none: under half of what covers is animate
    assert restriction.feature([Triple("rock", "cover", "field")], animacy) == [0.0]
    assert restriction.reason(EVENTS[0]) == (
        "80% of the 5 attested subjects of 'eat' in the training triples are people or animals, and 'rock' is neither"
    )
    restriction.save(tmp_path / "restriction.json")
    assert SubjectRestriction.load(tmp_path / "restriction.json") == restriction
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    with pytest.raises(DataFormatError, match="bad.json: not a subject restriction"):
        SubjectRestriction.load(tmp_path / "bad.json")


def test_a_stack_is_its_regression_over_log_odds_and_reversal_contrasts(fixtures, animacy):
    ngram = build_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")
    restriction = SubjectRestriction.count(COUNTS, animacy)
    stack = StackScorer(
        {"ngram": ngram}, ["ngram", "reversal:ngram", RESTRICTION], [0.5, 2.0, -5.0], 0.25, restriction, animacy
    )
    events = [Triple("dog", "chase", "cat"), Triple("cat", "chase", "dog"), *EVENTS]
    own = log_odds(ngram, events)
    reversed_ = log_odds(ngram, [reversal(event) for event in events])
    expected = 0.25 + 0.5 * own + 2.0 * (own - reversed_) - 5.0 * restriction.feature(events, animacy)
    np.testing.assert_allclose(stack.score(events), expected, rtol=1e-12)
    # one event at a time scores as the batch does
    np.testing.assert_allclose(np.concatenate([stack.score([event]) for event in events]), expected, rtol=1e-12)
    np.testing.assert_allclose(stack.to_probability(stack.score(events)), expit(expected))
    reasons = stack.reasons(events)
    # "cat chase dog" against the attested "dog chase cat", and the rock that eats
    assert [reason.feature for reason in reasons[1]] == ["reversal"]
    assert reasons[1][0].text == "its members find the reversed event 'dog chase cat' more plausible"
    assert reasons[1][0].log_odds == pytest.approx(2.0 * (own[1] - reversed_[1]))
    assert [reason.feature for reason in reasons[2]] == [RESTRICTION]
    assert reasons[0] == [] and reasons[3] == []


def test_a_stack_refuses_features_it_has_nothing_for(fixtures):
    ngram = build_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")
    with pytest.raises(DataFormatError, match="name nothing"):
        StackScorer({"ngram": ngram}, ["reversal:resnik"], [1.0], 0.0)
    with pytest.raises(DataFormatError, match="name nothing"):
        StackScorer({"ngram": ngram}, [RESTRICTION], [1.0], 0.0)
    with pytest.raises(DataFormatError, match="one coefficient per feature"):
        StackScorer({"ngram": ngram}, ["ngram"], [1.0, 2.0], 0.0)


def stack_folder(folder: Path, member: str) -> Path:
    """A stack folder over one member, with a calibration for each precision that differ on purpose."""
    folder.mkdir()
    config = {
        "format": STACK_FORMAT,
        "name": "stacked",
        "version": "1.0",
        "summary": "a test stack",
        "members": [member],
        "features": [{"feature": member, "coefficient": 1.5}, {"feature": f"reversal:{member}", "coefficient": 0.5}],
        "intercept": -0.2,
        "precisions": ["float32", "bfloat16"],
    }
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    Calibration(1.0, 0.0, 10, "test", "judgements").save(folder / "calibration.json")
    Calibration(2.0, 1.0, 10, "test", "judgements").save(folder / "calibration-bfloat16.json")
    return folder


def test_a_stack_folder_loads_with_the_calibration_of_its_precision(fixtures, tmp_path):
    folder = stack_folder(tmp_path / "stacked", f"ngram:{fixtures / 'ngram_triples.tsv'}")
    plain = plausibility.load_scorer(str(folder), dtype="float32")
    halved = plausibility.load_scorer(str(folder), dtype="bfloat16")
    assert (plain.precision, halved.precision) == ("float32", "bfloat16")
    events = [("dog", "chase", "cat"), ("person", "eat", "bread")]
    scores = plain.score(events)
    np.testing.assert_array_equal(halved.score(events), scores)  # no language model: the precision changes nothing
    np.testing.assert_allclose(plain.probability(events), expit(scores))
    np.testing.assert_allclose(halved.probability(events), expit(2 * scores + 1))
    (record,) = halved.records([events[0]], explain=True)
    assert record["precision"] == "bfloat16" and record["reasons"] == []
    assert stack_of(plain.scorer) is not None and stack_of(build_scorer("ngram")) is None
    # a precision it ships no calibration for (float16, on a GPU) falls back to float32's
    (folder / "calibration-bfloat16.json").unlink()
    np.testing.assert_allclose(
        plausibility.load_scorer(str(folder), dtype="bfloat16").probability(events), expit(scores)
    )


def test_bfloat16_is_chosen_only_on_a_cpu_unless_the_environment_says(monkeypatch):
    monkeypatch.delenv("PLAUSIBILITY_PRECISION", raising=False)
    assert fast_precision(torch.device("cuda")) == "float32"
    assert fast_precision(torch.device("cpu")) == ("bfloat16" if has_bfloat16_units() else "float32")
    monkeypatch.setenv("PLAUSIBILITY_PRECISION", "bfloat16")
    assert fast_precision(torch.device("cuda")) == "bfloat16"
    monkeypatch.setenv("PLAUSIBILITY_PRECISION", "fp8")
    with pytest.raises(PlausibilityError, match="unknown dtype 'fp8'"):
        fast_precision(torch.device("cpu"))

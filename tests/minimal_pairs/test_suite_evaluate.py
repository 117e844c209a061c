from pathlib import Path

import numpy as np
import pytest

from plausibility.errors import DataFormatError, PlausibilityError
from plausibility.minimal_pairs.evaluate import evaluate, limit_items
from plausibility.minimal_pairs.human import read_human_accuracy
from plausibility.minimal_pairs.suite_config import HumanReference, load_suite
from plausibility.minimal_pairs.suite_runner import load_items, run_suite

# Hand-made log-probabilities for the dog item; the car item scores every text -1.0, so all its
# comparisons tie and fail (a comparison needs good strictly above bad).
DOG = {
    "sg|pos_neg": -1.0, "sg|neg_pos": -2.0, "sg|pos_pos": -3.0, "sg|neg_neg": -4.0,
    "pl|pos_pos": -1.5, "pl|pos_neg": -5.0, "pl|neg_pos": -0.5, "pl|neg_neg": -6.0,
    "nonref|pos_neg": -1.0, "nonref|neg_pos": -2.0, "nonref|pos_pos": -10.0, "nonref|neg_neg": -4.0,
}  # fmt: skip
# Worked out by hand from DOG: which comparisons the dog item passes under the direct metric.
DOG_PASSES = {
    "p(sg|pos_neg)>p(sg|pos_pos)": True, "p(sg|neg_pos)>p(sg|pos_pos)": True,
    "p(sg|neg_pos)>p(sg|neg_neg)": True, "p(sg|pos_neg)>p(sg|neg_neg)": True,
    "p(pl|pos_pos)>p(pl|pos_neg)": True, "p(pl|pos_pos)>p(pl|neg_pos)": False,
    "p(pl|pos_pos)>p(pl|neg_neg)": True, "p(sg|pos_neg)>p(pl|pos_neg)": True,
    "p(sg|pos_neg)>p(pl|neg_pos)": False, "p(sg|pos_neg)>p(pl|neg_neg)": True,
    "p(sg|neg_pos)>p(pl|neg_pos)": False, "p(sg|neg_pos)>p(pl|pos_neg)": True,
    "p(sg|neg_pos)>p(pl|neg_neg)": True, "p(pl|pos_pos)>p(sg|pos_pos)": True,
    "p(pl|pos_pos)>p(sg|neg_neg)": True, "p(sg|neg_pos)>p(sg|pos_neg)": False,
    "p(pl|neg_pos)>p(pl|pos_neg)": True,
}  # fmt: skip


def _scores(items) -> dict[str, float]:
    dog, car = items
    scores = {text.id: DOG[role] for role, text in dog.roles.items()}
    scores.update({text.id: -1.0 for text in car.roles.values()})
    return scores


@pytest.fixture
def lieder_fixture(fixtures: Path) -> Path:
    return fixtures / "minimal_pairs" / "lieder_two_items.jsonl"


def test_hand_made_scores_give_hand_computed_accuracies(lieder_fixture: Path):
    suite = load_suite("lieder", data=lieder_fixture)
    items = load_items(suite)
    result = evaluate(suite, items, _scores(items), np.random.default_rng(0))
    overall = {row.comparison: row for row in result.results if not row.group}
    assert set(overall) == set(DOG_PASSES)
    for name, passes in DOG_PASSES.items():
        assert overall[name].n_items == 2
        assert overall[name].accuracy == (0.5 if passes else 0.0), name
        assert overall[name].ci_low <= overall[name].accuracy <= overall[name].ci_high
    per_family = [row for row in result.results if row.group == {"family": "affirmative_negation"}]
    assert len(per_family) == len(DOG_PASSES)


def test_relative_metric_uses_the_non_referential_control(lieder_fixture: Path):
    suite = load_suite("lieder", metric="relative", data=lieder_fixture)
    items = load_items(suite)
    result = evaluate(suite, items, _scores(items), np.random.default_rng(0))
    overall = {row.comparison: row.accuracy for row in result.results if not row.group}
    # relative(sg|pos_neg) = 1 / (1 + e^0) = 0.5 < relative(sg|pos_pos) = 1 / (1 + e^-7): the direct win flips.
    assert overall["p(sg|pos_neg)>p(sg|pos_pos)"] == 0.0
    # relative(sg|neg_pos) = relative(sg|neg_neg) = 0.5: a tie fails.
    assert overall["p(sg|neg_pos)>p(sg|neg_neg)"] == 0.0
    # relative(pl|pos_pos) = 1 / (1 + e^-8.5) > relative(pl|neg_neg) = 1 / (1 + e^2).
    assert overall["p(pl|pos_pos)>p(pl|neg_neg)"] == 0.5


def test_human_accuracy_is_averaged_per_family_and_overall(fixtures: Path):
    reference = HumanReference(
        fixtures / "minimal_pairs" / "human_accuracy.csv", "type", "correct", "family", "sent_type"
    )
    human = read_human_accuracy(reference)
    assert human[("pos_neg_s>pos_pos_s", "affirmative_negation")] == 0.5
    assert human[("pos_neg_s>pos_pos_s", "managed_failed")] == 1.0
    assert human[("pos_neg_s>pos_pos_s", "all")] == pytest.approx(2 / 3)  # float64 mean of thirds: an ulp


def test_human_accuracy_sits_beside_the_model_on_lieder(lieder_fixture: Path):
    suite = load_suite("lieder", data=lieder_fixture)
    items = load_items(suite)
    result = evaluate(suite, items, _scores(items), np.random.default_rng(0))
    row = next(r for r in result.results if r.comparison == "p(sg|pos_neg)>p(sg|pos_pos)" and not r.group)
    # 27 of the 32 human item comparisons (two families x 16 items) of the vendored file are correct.
    assert row.human == pytest.approx(27 / 32)  # exact: 27 of 32 is a binary fraction
    family = next(
        r for r in result.results if r.comparison == row.comparison and r.group == {"family": "affirmative_negation"}
    )
    assert family.human is not None


def test_difference_of_differences_on_anaphora_exp1a(fixtures: Path):
    suite = load_suite("anaphora_accessibility", "exp1a", data=fixtures / "minimal_pairs" / "anaphora_exp1a.jsonl")
    items = load_items(suite)
    assert [item.key for item in items] == ["0_m", "0_f"]
    # m: ∃ single -1, cross -2 (difference 1); ∀ single -1, cross -5 (difference 4): 1 < 4 succeeds.
    # f: ∃ single -1, cross -6 (difference 5) > ∀ difference 4: fails.
    by_role = {
        "m": {
            "ext|inScope": -1,
            "ext|outScope": -2,
            "uni|inScope": -1,
            "uni|outScope": -5,
            "no|inScope": -1,
            "no|outScope": -1,
        },
        "f": {
            "ext|inScope": -1,
            "ext|outScope": -6,
            "uni|inScope": -1,
            "uni|outScope": -5,
            "no|inScope": -1,
            "no|outScope": -1,
        },
    }
    scores = {text.id: by_role[item.labels["gender"]][role] for item in items for role, text in item.roles.items()}
    result = evaluate(suite, items, scores, np.random.default_rng(0))
    figures = {(row.comparison, tuple(row.group.items())): row.accuracy for row in result.results}
    assert figures[("exi>every", ())] == 0.5
    assert figures[("exi>every", (("gender", "m"),))] == 1.0
    assert figures[("exi>every", (("gender", "f"),))] == 0.0
    # The ∃ values (cross - single) -1 and -5 stay below the `no` value 0: both items fail.
    assert figures[("exi>no", ())] == 0.0


def test_unknown_condition_lists_the_conditions_present(tmp_path: Path, fixtures: Path):
    suite_file = tmp_path / "typo.yaml"
    suite_file.write_text(
        "name: typo\nversion: 1\nreader: field_pairs\nmetric: direct\n"
        "reader_options: {item_key: [UID, '@line'], text_fields: {good: sentence_good, bad: sentence_bad}}\n"
        "comparisons: [{name: g>b, good: god, bad: bad}]\n"
    )
    suite = load_suite(str(suite_file), data=fixtures / "minimal_pairs" / "blimp_tiny.jsonl")
    with pytest.raises(
        DataFormatError,
        match=r"comparison 'g>b' needs condition 'god', which no item of .* has; conditions present: bad, good",
    ):
        run_suite(suite, scores={"x": 0.0})


def test_scores_missing_for_some_texts_are_named(lieder_fixture: Path):
    suite = load_suite("lieder", data=lieder_fixture)
    with pytest.raises(
        DataFormatError,
        match=r"no score for 24 of the 24 texts of suite lieder/base, e.g. 1_dog_affirmative_negation_sref",
    ):
        run_suite(suite, scores={"unrelated": 0.0})


def test_run_needs_exactly_one_source_of_scores(lieder_fixture: Path):
    with pytest.raises(PlausibilityError, match="either a language model or a scores file"):
        run_suite(load_suite("lieder", data=lieder_fixture))


def test_blimp_reports_per_uid_and_field(fixtures: Path):
    suite = load_suite("blimp", data=fixtures / "minimal_pairs" / "blimp_tiny.jsonl")
    items = load_items(suite)
    assert [text.id for text in items[0].roles.values()] == [
        "anaphor_gender_agreement_1_good",
        "anaphor_gender_agreement_1_bad",
    ]
    scores = {text.id: (-1.0 if role == "good" else -2.0) for item in items for role, text in item.roles.items()}
    scores["npi_present_1_4_good"] = -3.0
    result = evaluate(suite, items, scores, np.random.default_rng(0))
    figures = {tuple(row.group.items()): row.accuracy for row in result.results}
    assert figures[()] == 0.75
    assert figures[(("field", "morphology"),)] == 1.0
    assert figures[(("field", "semantics"),)] == 0.0
    assert figures[(("UID", "anaphor_gender_agreement"),)] == 1.0


def test_limit_samples_per_condition_reproducibly():
    suite = load_suite("targeted_syntax", data=None)
    items = load_items(load_suite("schuster_linzen", "exp2"))
    first = limit_items(items, 3, ["type"], np.random.default_rng(1))
    again = limit_items(items, 3, ["type"], np.random.default_rng(1))
    assert [item.key for item in first] == [item.key for item in again]
    counts = {}
    for item in first:
        counts[item.labels["type"]] = counts.get(item.labels["type"], 0) + 1
    assert counts == {kind: 3 for kind in {item.labels["type"] for item in items}}
    assert suite.limit_by == ("task", "condition")


def test_bad_reader_options_are_named(tmp_path: Path, fixtures: Path):
    suite_file = tmp_path / "odd.yaml"
    suite_file.write_text(
        "name: odd\nversion: 1\nreader: field_pairs\nmetric: direct\n"
        "reader_options: {item_key: [UID], text_field: {good: sentence_good}}\n"
        "comparisons: [{name: g>b, good: good, bad: bad}]\n"
    )
    suite = load_suite(str(suite_file), data=fixtures / "minimal_pairs" / "blimp_tiny.jsonl")
    with pytest.raises(PlausibilityError, match=r"suite odd: bad reader_options for reader 'field_pairs'"):
        load_items(suite)


def test_grouping_by_a_label_the_items_lack_lists_their_labels(fixtures: Path):
    items = load_items(load_suite("blimp", data=fixtures / "minimal_pairs" / "blimp_tiny.jsonl"))
    with pytest.raises(
        DataFormatError, match=r"limit_by names label 'task', which the items do not carry; labels: UID, field"
    ):
        limit_items(items, 1, ["task"], np.random.default_rng(0))

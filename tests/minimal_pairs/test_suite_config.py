from pathlib import Path

import pytest

from plausibility.errors import UnknownNameError
from plausibility.minimal_pairs.suite_config import SuiteConfigError, available_suites, load_suite

# The paper's Table 3 (Zhu & Frank 2024): felicitous > infelicitous, with the requirement each one tests.
TABLE_3 = {
    ("sg|pos_neg", "sg|pos_pos"): "uniqueness, novelty",
    ("sg|neg_pos", "sg|pos_pos"): "uniqueness, novelty",
    ("sg|neg_pos", "sg|neg_neg"): "existence",
    ("sg|pos_neg", "sg|neg_neg"): "existence",
    ("pl|pos_pos", "pl|pos_neg"): "plurality",
    ("pl|pos_pos", "pl|neg_pos"): "plurality",
    ("pl|pos_pos", "pl|neg_neg"): "existence, plurality",
    ("sg|pos_neg", "pl|pos_neg"): "plurality",
    ("sg|pos_neg", "pl|neg_pos"): "plurality",
    ("sg|pos_neg", "pl|neg_neg"): "existence, plurality",
    ("sg|neg_pos", "pl|neg_pos"): "plurality",
    ("sg|neg_pos", "pl|pos_neg"): "plurality",
    ("sg|neg_pos", "pl|neg_neg"): "existence, plurality",
    ("pl|pos_pos", "sg|pos_pos"): "uniqueness, novelty",
    ("pl|pos_pos", "sg|neg_neg"): "existence",
}


@pytest.mark.parametrize("experiment", ["base", "diff", "two"])
def test_lieder_has_every_comparison_of_table_3_in_the_right_direction(experiment):
    suite = load_suite("lieder", experiment)
    tests = {(c.good, c.bad): c.labels["requirement"] for c in suite.comparisons if c.kind == "test"}
    for pair, requirement in TABLE_3.items():
        assert tests.get(pair) == requirement, pair
    for comparison in suite.comparisons:
        a, x = comparison.good.split("|")
        b, y = comparison.bad.split("|")
        assert comparison.name == f"p({a}|{x})>p({b}|{y})"
    assert len(tests) == (15 if experiment != "two" else 21)


def test_lieder_distance_effect_is_a_statistic_not_a_test():
    statistics = {(c.good, c.bad) for c in load_suite("lieder").comparisons if c.kind == "statistic"}
    assert statistics == {("sg|neg_pos", "sg|pos_neg"), ("pl|neg_pos", "pl|pos_neg")}


def test_lieder_two_adds_the_explicit_plurality_contexts_of_table_5():
    added = {(c.good, c.bad) for c in load_suite("lieder", "two").comparisons} - set(TABLE_3)
    assert ("sg|pos_neg", "sg|two_neg") in added and ("sg|neg_pos", "sg|neg_two") in added
    assert ("pl|two_neg", "pl|pos_neg") in added and ("pl|neg_two", "pl|neg_pos") in added


def test_relative_metric_pairs_each_condition_with_its_non_referential_control():
    suite = load_suite("lieder", metric="relative")
    assert suite.metric == "relative"
    assert suite.condition("sg|pos_neg").control == "nonref|pos_neg"
    assert suite.version == 1


def test_every_built_in_suite_loads():
    assert available_suites() == [
        "anaphora_accessibility", "blimp", "ecbd", "lieder", "schuster_linzen", "targeted_syntax"
    ]  # fmt: skip
    for name in available_suites():
        assert load_suite(name).comparisons


def test_unknown_suite_lists_the_known_ones():
    with pytest.raises(UnknownNameError, match=r"unknown suite 'lider'; known: anaphora_accessibility, blimp, ecbd"):
        load_suite("lider")


def test_unknown_experiment_lists_the_known_ones():
    with pytest.raises(UnknownNameError, match=r"unknown experiment of suite lieder 'three'; known: base, diff, two"):
        load_suite("lieder", "three")


def test_metric_the_suite_does_not_allow_is_refused():
    with pytest.raises(
        SuiteConfigError, match=r"metric 'relative' is not available for suite lieder/two; available: direct"
    ):
        load_suite("lieder", "two", metric="relative")


def test_unknown_metric_name_in_a_suite_file_lists_the_registry(tmp_path: Path):
    suite = tmp_path / "mine.yaml"
    suite.write_text(
        "name: mine\nversion: 1\nreader: field_pairs\nmetric: ratio\ncomparisons: [{name: g>b, good: good, bad: bad}]\n"
    )
    with pytest.raises(
        UnknownNameError, match=r"unknown comparison metric 'ratio'; known: difference, direct, relative"
    ):
        load_suite(str(suite))


def test_suite_file_with_an_unknown_key_is_refused(tmp_path: Path):
    suite = tmp_path / "mine.yaml"
    suite.write_text("name: mine\nversion: 1\nreader: field_pairs\ncomparison: []\n")
    with pytest.raises(SuiteConfigError, match=r"unknown keys \['comparison'\]"):
        load_suite(str(suite))


def test_suite_file_without_version_is_refused(tmp_path: Path):
    suite = tmp_path / "mine.yaml"
    suite.write_text(
        "name: mine\nreader: field_pairs\nmetric: direct\ncomparisons: [{name: g>b, good: good, bad: bad}]\n"
    )
    with pytest.raises(SuiteConfigError, match=r"missing key 'version'"):
        load_suite(str(suite))

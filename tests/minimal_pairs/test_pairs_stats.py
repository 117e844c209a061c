import numpy as np
import pytest

from plausibility.minimal_pairs.stats import accuracy, bootstrap_ci


def test_accuracy_is_the_share_of_successes():
    assert accuracy(np.array([1.0, 0.0, 1.0, 1.0])) == 0.75
    assert np.isnan(accuracy(np.array([])))


def test_bootstrap_is_seeded_and_contains_the_estimate():
    values = (np.arange(37) % 3 != 0).astype(float)  # 24 of 37 items succeed
    first = bootstrap_ci(values, np.random.default_rng(7), n_resamples=50)
    second = bootstrap_ci(values, np.random.default_rng(7), n_resamples=50)
    other = bootstrap_ci(values, np.random.default_rng(8), n_resamples=50)
    assert first == second
    assert first != other
    assert first.estimate == pytest.approx(24 / 37)  # exact: the mean of 0/1 values is 24.0 / 37 rounded once
    assert first.low <= first.estimate <= first.high
    assert 0.0 <= first.low < first.high <= 1.0


def test_bootstrap_interval_of_identical_outcomes_collapses():
    interval = bootstrap_ci(np.ones(5), np.random.default_rng(0))
    assert (interval.estimate, interval.low, interval.high) == (1.0, 1.0, 1.0)


def test_bootstrap_of_one_item_has_no_interval():
    interval = bootstrap_ci(np.array([1.0]), np.random.default_rng(0))
    assert interval.estimate == 1.0
    assert np.isnan(interval.low) and np.isnan(interval.high)

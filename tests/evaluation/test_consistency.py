import numpy as np
import pytest

from plausibility.evaluation.consistency import (
    concavity_delta,
    concavity_violations,
    grid_windows,
    local_extrema,
    local_extremum_rate,
    percentile_ranks,
    sequence_windows,
)


def test_rising_concave_sequence_is_fully_consistent():
    windows = sequence_windows([0.1, 0.4, 0.6, 0.7])
    assert windows.tolist() == [[0.1, 0.4, 0.6], [0.4, 0.6, 0.7]]
    assert concavity_delta(windows) == 0.0
    assert local_extremum_rate(windows) == 0.0


def test_peaked_concave_sequence_has_no_violation_but_one_extremum():
    windows = sequence_windows([0.2, 0.6, 0.8, 0.5])
    assert concavity_delta(windows) == 0.0
    assert local_extrema(windows).tolist() == [False, True]
    assert local_extremum_rate(windows) == 0.5


def test_zig_zag_by_hand():
    # (0.2, 0.8, 0.2): a peak, no sag.  (0.8, 0.2, 0.6): a dip of (0.8 + 0.6) / 2 - 0.2 = 0.5.
    windows = sequence_windows([0.2, 0.8, 0.2, 0.6])
    assert concavity_violations(windows) == pytest.approx([0.0, 0.5])  # float64 of decimals: a few ulps
    assert concavity_delta(windows) == pytest.approx(0.25)  # float64 of decimals: a few ulps
    assert local_extremum_rate(windows) == 1.0


def test_ties_are_not_extrema_and_sag_only_by_the_formula():
    windows = np.array([[0.5, 0.5, 0.9], [0.3, 0.3, 0.3], [0.9, 0.5, 0.5]])
    assert local_extrema(windows).tolist() == [False, False, False]
    assert concavity_violations(windows) == pytest.approx([0.2, 0.0, 0.2])  # float64 of decimals: a few ulps


def test_grid_windows_pool_rows_then_columns():
    grid = np.array([[0.1, 0.2, 0.3], [0.4, 0.1, 0.5], [0.2, 0.3, 0.1]])
    windows = grid_windows(grid)
    assert windows.tolist() == [
        [0.1, 0.2, 0.3], [0.4, 0.1, 0.5], [0.2, 0.3, 0.1],  # rows
        [0.1, 0.4, 0.2], [0.2, 0.1, 0.3], [0.3, 0.5, 0.1],  # columns
    ]  # fmt: skip
    # sags: row 2 by 0.45 - 0.1 = 0.35, column 2 by 0.25 - 0.1 = 0.15; five middles are extrema
    assert concavity_delta(windows) == pytest.approx(0.5 / 6)  # float64 of decimals: a few ulps
    assert local_extremum_rate(windows) == pytest.approx(5 / 6)  # exact: a mean of booleans, 5 / 6 rounded once


def test_short_axes_give_no_windows():
    assert grid_windows(np.full((2, 4), 0.5)).shape == (4, 3)  # two rows of two windows; columns too short
    assert grid_windows(np.full((1, 1), 0.5)).shape == (0, 3)
    with pytest.raises(ValueError, match="no windows"):
        concavity_delta(grid_windows(np.full((2, 2), 0.5)))


def test_scores_outside_zero_one_are_refused():
    with pytest.raises(ValueError, match="estimates must be probabilities in \\[0, 1\\]"):
        local_extremum_rate([[0.1, -2.0, 0.3]])
    with pytest.raises(ValueError, match="windows must have shape"):
        concavity_delta([0.1, 0.2, 0.3])


def test_scale_free_estimates_of_a_constant_scorer_never_sag():
    ranks = percentile_ranks([-7.0] * 9)
    assert ranks.tolist() == [0.5] * 9
    assert concavity_delta(grid_windows(ranks.reshape(3, 3))) == 0.0


def test_scale_free_estimates_of_an_alternating_grid_by_hand():
    # Values 1, 2, 1, 2, ... ranked among themselves: the four 1s share ranks 1-4 (mean 2.5), the four 2s
    # ranks 5-8 (mean 6.5); over n - 1 = 7 they become 1.5/7 and 5.5/7. Every window of the 2 x 4 grid's two
    # rows alternates; the (low, high, low) ones never sag, the (high, low, high) ones sag by 4/7; the
    # columns are too short for a window.
    grid = np.array([[1.0, 2.0, 1.0, 2.0], [2.0, 1.0, 2.0, 1.0]])
    ranks = percentile_ranks(grid.ravel()).reshape(grid.shape)
    # These three: float64 arithmetic on sevenths, a few ulps.
    assert ranks[0].tolist() == pytest.approx([1.5 / 7, 5.5 / 7, 1.5 / 7, 5.5 / 7])
    assert concavity_violations(grid_windows(ranks)) == pytest.approx([0.0, 4 / 7, 4 / 7, 0.0])
    assert concavity_delta(grid_windows(ranks)) == pytest.approx(2 / 7)


def test_scale_free_estimates_ignore_any_increasing_transform():
    scores = np.random.default_rng(0).normal(size=40)
    ranks = percentile_ranks(scores)
    assert np.array_equal(ranks, percentile_ranks(np.exp(3 * scores) * 1e-9))
    assert ranks.min() == 0.0 and ranks.max() == 1.0

import numpy as np
import pytest

from plausibility.errors import UnknownNameError
from plausibility.minimal_pairs.registry import get_metric


def test_relative_metric_is_the_share_of_the_continuation_against_its_control():
    relative = get_metric("relative")
    scores, control = np.log(np.array([0.2, 0.01])), np.log(np.array([0.6, 0.01]))
    np.testing.assert_allclose(relative.value(scores, control), [0.2 / 0.8, 0.5])  # float64 logs and exps: ulps
    assert relative.needs_control and relative.higher_is_better


def test_relative_metric_survives_scores_far_below_exp_underflow():
    value = get_metric("relative").value(np.array([-2000.0]), np.array([-2001.0]))
    np.testing.assert_allclose(value, [1 / (1 + np.exp(-1))])  # float64: a sigmoid of the difference, an ulp


def test_direct_and_difference_metrics():
    np.testing.assert_allclose(get_metric("direct").value(np.array([-3.0, -1.5]), None), [-3.0, -1.5])  # exact
    np.testing.assert_allclose(get_metric("difference").value(np.array([-5.0]), np.array([-1.0])), [-4.0])  # exact


def test_unknown_metric_lists_the_known_ones():
    with pytest.raises(
        UnknownNameError, match=r"unknown comparison metric 'ratio'; known: difference, direct, relative"
    ):
        get_metric("ratio")

"""Comparison metrics by name: how the scores of an item's texts become the value of one condition."""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from plausibility.errors import UnknownNameError


@dataclass(frozen=True)
class ComparisonMetric:
    """Maps the score of a condition's text (and of its control text) to the value that comparisons rank.

    A comparison `good > bad` succeeds on an item when `value(good) > value(bad)` (strictly; ties fail).
    """

    name: str
    description: str
    needs_control: bool
    value: Callable[[np.ndarray, np.ndarray | None], np.ndarray]
    higher_is_better: bool = True


def direct(scores: np.ndarray, control: np.ndarray | None = None) -> np.ndarray:
    """The log-probability itself (LIEDER's and Schuster & Linzen's direct metric)."""
    return np.asarray(scores, dtype=float)


def relative(scores: np.ndarray, control: np.ndarray | None) -> np.ndarray:
    """`P(C|x) / (P(C|x) + P(NonRef|x))` from natural-log scores (Schuster & Linzen 2022; LIEDER eq. 2-3).

    Computed as `sigmoid(log P(C|x) - log P(NonRef|x))`, which never under- or overflows.
    """
    return expit(np.asarray(scores, dtype=float) - np.asarray(control, dtype=float))


def difference(scores: np.ndarray, control: np.ndarray | None) -> np.ndarray:
    """`score - control`: with text = cross-sentence and control = single-sentence version this is the
    difference of differences of Zhu et al. (2025, eq. 5): `∃ > ∀` on it means
    `log p(∃-single) - log p(∃-cross) < log p(∀-single) - log p(∀-cross)`."""
    return np.asarray(scores, dtype=float) - np.asarray(control, dtype=float)


METRICS: dict[str, ComparisonMetric] = {
    metric.name: metric
    for metric in (
        ComparisonMetric("direct", "log-probability of the text (or continuation)", False, direct),
        ComparisonMetric("relative", "P(C|x) / (P(C|x) + P(control|x))", True, relative),
        ComparisonMetric("difference", "score of the text minus score of its control text", True, difference),
    )
}


def get_metric(name: str) -> ComparisonMetric:
    """The comparison metric called `name`; an unknown name fails with the list of known ones."""
    if name not in METRICS:
        raise UnknownNameError("comparison metric", name, tuple(METRICS))
    return METRICS[name]

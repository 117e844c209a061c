"""Accuracy over items with a bootstrapped confidence interval (pure functions on arrays)."""

from dataclasses import dataclass

import numpy as np
from scipy.stats import bootstrap


@dataclass(frozen=True)
class Interval:
    """A point estimate with the bounds of its confidence interval."""

    estimate: float
    low: float
    high: float


def accuracy(outcomes: np.ndarray) -> float:
    """Share of items whose comparison came out in the expected direction; NaN for no items."""
    outcomes = np.asarray(outcomes, dtype=float)
    return float(outcomes.mean()) if outcomes.size else float("nan")


def bootstrap_ci(
    values: np.ndarray, rng: np.random.Generator, confidence: float = 0.95, n_resamples: int = 2000
) -> Interval:
    """Mean of `values` with a percentile bootstrap interval, resampling items with replacement.

    The percentile method (not BCa) keeps the interval defined when every item has the same outcome, where
    it collapses to the point estimate. Fewer than two items give NaN bounds.
    """
    values = np.asarray(values, dtype=float)
    estimate = accuracy(values)
    if values.size < 2:
        return Interval(estimate, float("nan"), float("nan"))
    if np.all(values == values[0]):
        return Interval(estimate, estimate, estimate)
    result = bootstrap(
        (values,),
        np.mean,
        n_resamples=n_resamples,
        confidence_level=confidence,
        method="percentile",
        vectorized=True,
        batch=100,  # resamples held in memory at once: bounds memory on suites with 10^5 items
        rng=rng,
    )
    return Interval(estimate, float(result.confidence_interval.low), float(result.confidence_interval.high))

"""Percentile-bootstrap confidence intervals of statistics over items (pure functions on arrays)."""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.stats import bootstrap


@dataclass(frozen=True)
class Interval:
    """A point estimate with the bounds of its confidence interval."""

    estimate: float
    low: float
    high: float


def mean_interval(
    values: np.ndarray, rng: np.random.Generator, confidence: float = 0.95, n_resamples: int = 2000
) -> Interval:
    """Mean of `values` with a percentile bootstrap interval, resampling items with replacement.

    The percentile method (not BCa) keeps the interval defined when every item has the same value, where it
    collapses to the point estimate. Fewer than two items give NaN bounds (and no items a NaN mean).
    """
    values = np.asarray(values, dtype=float)
    estimate = float(values.mean()) if values.size else float("nan")
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
        batch=100,  # resamples held in memory at once: bounds memory on sets with 10^5 items
        rng=rng,
    )
    return Interval(estimate, float(result.confidence_interval.low), float(result.confidence_interval.high))


def paired_interval(
    statistic: Callable[[np.ndarray, np.ndarray], float],
    first: np.ndarray,
    second: np.ndarray,
    rng: np.random.Generator,
    confidence: float = 0.95,
    n_resamples: int = 1000,
) -> Interval:
    """`statistic(first, second)` with a percentile bootstrap interval, resampling items (both values together).

    Fewer than three items give NaN bounds; a resample on which the statistic is undefined (NaN: a constant
    one) is left out, which SciPy's `bootstrap` cannot do.
    """
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    estimate = float(statistic(first, second))
    if len(first) < 3:
        return Interval(estimate, float("nan"), float("nan"))
    values = np.array([statistic(first[i], second[i]) for i in rng.integers(0, len(first), (n_resamples, len(first)))])
    values = values[~np.isnan(values)]
    if values.size == 0:
        return Interval(estimate, float("nan"), float("nan"))
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return Interval(estimate, float(low), float(high))

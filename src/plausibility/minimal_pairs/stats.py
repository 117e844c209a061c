"""Accuracy over items with a bootstrapped confidence interval (pure functions on arrays)."""

import numpy as np

from plausibility.bootstrap import Interval, mean_interval

__all__ = ["Interval", "accuracy", "bootstrap_ci"]


def accuracy(outcomes: np.ndarray) -> float:
    """Share of items whose comparison came out in the expected direction; NaN for no items."""
    outcomes = np.asarray(outcomes, dtype=float)
    return float(outcomes.mean()) if outcomes.size else float("nan")


def bootstrap_ci(
    values: np.ndarray, rng: np.random.Generator, confidence: float = 0.95, n_resamples: int = 2000
) -> Interval:
    """Accuracy over items with a percentile bootstrap interval (`plausibility.bootstrap.mean_interval`)."""
    return mean_interval(values, rng, confidence, n_resamples)

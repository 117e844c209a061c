"""Pure metrics over score arrays: ROC-AUC of plausibility scores against human labels, and calibration error."""

from collections.abc import Sequence

import numpy as np
from sklearn.metrics import roc_auc_score

from plausibility.errors import DataFormatError

# Equal-width probability bins of the expected calibration error.
CALIBRATION_BINS = 10


def roc_auc(y_true: Sequence[int] | np.ndarray, y_score: Sequence[float] | np.ndarray) -> float:
    """Area under the ROC curve of `y_score` against binary `y_true` (1 plausible); ties count one half.

    Higher is better.

    Raises:
        DataFormatError: the arrays differ in length, a score is not finite, or only one class is present.
    """
    labels = np.asarray(y_true)
    scores = np.asarray(y_score, dtype=np.float64)
    if labels.shape != scores.shape or labels.ndim != 1:
        raise DataFormatError(f"roc_auc: labels {labels.shape} and scores {scores.shape} must be equal 1-d arrays")
    if not np.isfinite(scores).all():
        raise DataFormatError("roc_auc: scores contain NaN or infinity; check the scorer's output")
    if np.unique(labels).size != 2:
        raise DataFormatError("roc_auc: needs both labels 0 and 1 among the events; give a set with both classes")
    return float(roc_auc_score(labels, scores))


def expected_calibration_error(
    labels: Sequence[int] | np.ndarray, probabilities: Sequence[float] | np.ndarray, bins: int = CALIBRATION_BINS
) -> float:
    """ECE over equal-width probability bins: sum over bins of (share of events) x |positive rate - mean probability|.

    Bins are those of sklearn's `calibration_curve` (uniform strategy). Lower is better.
    """
    y = np.asarray(labels, dtype=np.float64)
    p = np.asarray(probabilities, dtype=np.float64)
    if len(y) != len(p) or len(y) == 0:
        raise DataFormatError(f"ECE needs as many labels as probabilities, at least one (got {len(y)}, {len(p)})")
    which = np.searchsorted(np.linspace(0.0, 1.0, bins + 1)[1:-1], p)  # each event's bin, as calibration_curve
    counts = np.bincount(which, minlength=bins)
    gaps = np.abs(np.bincount(which, weights=y, minlength=bins) - np.bincount(which, weights=p, minlength=bins))
    return float(gaps.sum() / counts.sum())


def accuracy_at(
    labels: Sequence[int] | np.ndarray, probabilities: Sequence[float] | np.ndarray, threshold: float = 0.5
) -> float:
    """Share of events on the right side of `threshold`: probability above it for label 1, at or below for 0."""
    y = np.asarray(labels)
    p = np.asarray(probabilities, dtype=np.float64)
    return float(np.mean((p > threshold) == (y == 1)))


def best_threshold_accuracy(labels: Sequence[int] | np.ndarray, scores: Sequence[float] | np.ndarray) -> float:
    """The highest accuracy any single threshold on the scores reaches (ties of scores stay together)."""
    y = np.asarray(labels)
    s = np.asarray(scores, dtype=np.float64)
    order = np.argsort(s, kind="stable")
    s, y = s[order], y[order]
    # Cutting after position i calls events 0..i implausible: right are the 0s below and the 1s above the cut.
    zeros_below = np.cumsum(y == 0)
    ones_above = (y == 1).sum() - np.cumsum(y == 1)
    cuts = np.append(np.flatnonzero(np.diff(s) > 0), len(s) - 1)  # only between distinct scores
    right = np.concatenate([[(y == 1).sum()], zeros_below[cuts] + ones_above[cuts]])
    return float(right.max() / len(y))

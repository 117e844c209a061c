"""ROC-AUC with a bootstrapped confidence interval over events (pure functions on arrays)."""

from collections.abc import Callable, Sequence

import numpy as np
from scipy.stats import bootstrap, rankdata

from plausibility.bootstrap import Interval
from plausibility.metrics import roc_auc

AucInterval = Interval  # an AUC with the bounds of its confidence interval (higher is better)


def rank_auc(positives: np.ndarray, negatives: np.ndarray) -> np.ndarray:
    """AUC from the Mann-Whitney rank sum along the last axis (ties count one half); batched over the rest."""
    both = np.concatenate([positives, negatives], axis=-1)
    ranks = rankdata(both, axis=-1)  # average ranks for ties
    n_positive, n_negative = positives.shape[-1], negatives.shape[-1]
    rank_sum = ranks[..., :n_positive].sum(axis=-1)
    return (rank_sum - n_positive * (n_positive + 1) / 2) / (n_positive * n_negative)


def auc_interval(
    y_true: Sequence[int] | np.ndarray,
    y_score: Sequence[float] | np.ndarray,
    rng: np.random.Generator,
    confidence: float = 0.95,
    n_resamples: int = 1000,
) -> AucInterval:
    """ROC-AUC with a percentile bootstrap interval, resampling plausible and implausible events separately.

    Resampling within each class (a stratified bootstrap) keeps both classes in every resample, so every
    resampled AUC is defined; the sets are balanced, so this matches resampling events as a whole closely.
    Scores that are all equal give a degenerate interval at 0.5; a class of one event gives NaN bounds.

    Raises:
        DataFormatError: as `roc_auc` (unequal lengths, non-finite scores, a single class).
    """
    estimate = roc_auc(y_true, y_score)
    labels = np.asarray(y_true)
    scores = np.asarray(y_score, dtype=np.float64)
    positives, negatives = scores[labels == 1], scores[labels == 0]
    if np.all(scores == scores[0]):
        return AucInterval(estimate, estimate, estimate)
    if min(len(positives), len(negatives)) < 2:
        return AucInterval(estimate, float("nan"), float("nan"))
    low, high = _percentile_bounds((positives, negatives), rank_auc, rng, confidence, n_resamples)
    return AucInterval(estimate, low, high)


def _percentile_bounds(
    samples: tuple[np.ndarray, np.ndarray],
    statistic: Callable[[np.ndarray, np.ndarray], np.ndarray],
    rng: np.random.Generator,
    confidence: float,
    n_resamples: int,
) -> tuple[float, float]:
    """Percentile bootstrap bounds of `statistic(positives, negatives)`, each class resampled along its last axis."""
    result = bootstrap(
        samples,
        lambda p, n, axis: statistic(p, n),
        n_resamples=n_resamples,
        confidence_level=confidence,
        method="percentile",
        vectorized=True,
        paired=False,
        axis=-1,
        batch=200,  # resamples per vectorised call: bounds memory at 200 x the set size
        rng=rng,
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def auc_difference_interval(
    y_true: Sequence[int] | np.ndarray,
    first: Sequence[float] | np.ndarray,
    second: Sequence[float] | np.ndarray,
    rng: np.random.Generator,
    confidence: float = 0.95,
    n_resamples: int = 1000,
) -> AucInterval:
    """AUC of `first` less AUC of `second` on the same events, with a paired percentile bootstrap interval.

    Each resample draws events (within each class, as `auc_interval`) and keeps both scorers' scores of
    each drawn event together, so the interval is that of the difference, far narrower than the two AUCs'
    own intervals side by side when the scorers agree on most events. An interval that holds 0 says the
    two are not told apart on these events.
    """
    estimate = roc_auc(y_true, first) - roc_auc(y_true, second)
    labels = np.asarray(y_true)
    scores = np.stack([np.asarray(first, dtype=np.float64), np.asarray(second, dtype=np.float64)])
    if np.array_equal(scores[0], scores[1]):
        return AucInterval(estimate, estimate, estimate)
    low, high = _percentile_bounds(
        (scores[:, labels == 1], scores[:, labels == 0]),  # (2, events): an event's two scores drawn together
        lambda p, n: rank_auc(p[0], n[0]) - rank_auc(p[1], n[1]),
        rng,
        confidence,
        n_resamples,
    )
    return AucInterval(estimate, low, high)

"""Consistency of plausibility across abstractions: Concavity Delta (CCΔ) and Local Extremum Rate (LER).

Both follow the thesis (Porada, section 6.3.2). A *window* is three consecutive estimates
`(a_{i-1}, a_i, a_{i+1})` along one sequence of abstractions; in an event's grid the sequences are its rows
(the subject held, the object moving along its chain) and its columns. Both metrics are averaged over all
windows pooled together, and for both lower is better (more consistent).

CCΔ on a scorer's own probabilities rewards a scorer whose probabilities are all tiny (an n-gram's lie in
1e-9..1e-2, so its sags are tiny too). The *scale-free* CCΔ is the same mean on percentile ranks instead:
each estimate replaced by its mid-rank percentile among all abstractions scored for the measurement
(`percentile_ranks`), so any strictly increasing transform of the scores leaves it unchanged and every
scorer's estimates span [0, 1] alike. LER compares neighbours only, so it is scale-free already. For both,
lower is better.
"""

import numpy as np
from numpy.typing import ArrayLike


def sequence_windows(sequence: ArrayLike) -> np.ndarray:
    """Every window of three consecutive values; shape (max(len - 2, 0), 3)."""
    values = np.asarray(sequence, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"a sequence must be one-dimensional, got shape {values.shape}")
    if len(values) < 3:
        return np.zeros((0, 3))
    return np.lib.stride_tricks.sliding_window_view(values, 3).copy()


def grid_windows(grid: ArrayLike) -> np.ndarray:
    """Windows of every row, then of every column, of a (subjects, objects) grid; shape (n_windows, 3)."""
    values = np.asarray(grid, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError(f"a grid must be two-dimensional (subjects, objects), got shape {values.shape}")
    return np.concatenate([np.zeros((0, 3)), *map(sequence_windows, values), *map(sequence_windows, values.T)])


def _checked(windows: ArrayLike) -> np.ndarray:
    values = np.asarray(windows, dtype=np.float64)
    if values.ndim != 2 or values.shape[1] != 3:
        raise ValueError(f"windows must have shape (n, 3), got {values.shape}")
    if len(values) == 0:
        raise ValueError("no windows: every sequence of abstractions is shorter than three")
    if not np.all(np.isfinite(values)) or values.min() < 0.0 or values.max() > 1.0:
        raise ValueError("estimates must be probabilities in [0, 1]; map scores with the scorer's to_probability")
    return values


def concavity_violations(windows: ArrayLike) -> np.ndarray:
    """δ per window: `max(0, (a_{i-1} + a_{i+1}) / 2 - a_i)`, how far the middle sags below its neighbours."""
    values = _checked(windows)
    return np.maximum(0.0, (values[:, 0] + values[:, 2]) / 2.0 - values[:, 1])


def local_extrema(windows: ArrayLike) -> np.ndarray:
    """Whether each window's middle is a strict local maximum or minimum (a tie with a neighbour is neither)."""
    values = _checked(windows)
    outer_max = np.maximum(values[:, 0], values[:, 2])
    outer_min = np.minimum(values[:, 0], values[:, 2])
    return (values[:, 1] > outer_max) | (values[:, 1] < outer_min)


def concavity_delta(windows: ArrayLike) -> float:
    """CCΔ: the mean concavity violation over all windows (0 for concave sequences; lower is better)."""
    return float(np.mean(concavity_violations(windows)))


def local_extremum_rate(windows: ArrayLike) -> float:
    """LER: the share of windows whose middle is a strict local extremum (lower is better)."""
    return float(np.mean(local_extrema(windows)))


def percentile_ranks(values: ArrayLike) -> np.ndarray:
    """Each value's mid-rank percentile among all of them, `(rank - 1) / (n - 1)` in [0, 1]; ties share one.

    The lowest value maps to 0 and the highest to 1; equal values get the mean of their ranks, so a
    constant scorer maps every value to 0.5 (and a lone value is 0.5 too).
    """
    from scipy.stats import rankdata  # scipy.stats takes half a second to import; only this needs it

    scores = np.asarray(values, dtype=np.float64)
    if scores.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {scores.shape}")
    if len(scores) < 2:
        return np.full(len(scores), 0.5)
    return (rankdata(scores, method="average") - 1.0) / (len(scores) - 1.0)

"""The figures of a scored judged set, each with a bootstrap interval: AUC against binary labels, Spearman and
Pearson against ratings, and pairwise accuracy of typical against atypical events (ties count one half)."""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import pearsonr, spearmanr

from plausibility.benchmarks.judged_set import JudgedSet
from plausibility.bootstrap import Interval, mean_interval, paired_interval
from plausibility.evaluation.intervals import auc_interval


@dataclass(frozen=True)
class Figure:
    """One figure of one benchmark split (or one group of it), with its interval and how many it pools.

    Attributes:
        group: `all`, or `column=value` for the events of one group (`--by`).
        figure: `auc`, `spearman`, `pearson` or `pairwise_accuracy` (higher is better for each).
        n: events pooled (pairs, for pairwise accuracy).
    """

    benchmark: str
    split: str
    group: str
    figure: str
    value: float
    low: float
    high: float
    n: int


def _spearman(first: np.ndarray, second: np.ndarray) -> float:
    """Spearman's rho; NaN (not a warning) for a constant resample, which the interval leaves out."""
    return float(spearmanr(first, second).statistic) if np.ptp(first) and np.ptp(second) else float("nan")


def _pearson(first: np.ndarray, second: np.ndarray) -> float:
    return float(pearsonr(first, second).statistic) if np.ptp(first) and np.ptp(second) else float("nan")


def pair_outcomes(scores: np.ndarray, pairs: Sequence[str], labels: Sequence[int]) -> np.ndarray:
    """For each pair with both its events here (in sorted order of its id): 1 if its typical event scores above
    its atypical one, 0.5 on a tie, 0 otherwise."""
    typical: dict[str, float] = {}
    atypical: dict[str, float] = {}
    for score, pair, label in zip(scores, pairs, labels, strict=True):
        (typical if label == 1 else atypical)[pair] = float(score)
    both = sorted(set(typical) & set(atypical))
    return np.array([0.5 if typical[p] == atypical[p] else float(typical[p] > atypical[p]) for p in both])


def _figures(judged: JudgedSet, scores: np.ndarray, group: str, seed: int) -> list[Figure]:
    table = judged.table
    rng = np.random.default_rng(seed)
    found: list[tuple[str, Interval, int]] = []
    for kind in judged.kinds:
        if kind == "label":
            labels = table["label"].to_numpy()
            if len(set(labels.tolist())) == 2:  # a group of one class has no AUC
                interval = auc_interval(labels, scores, rng)
                found.append(("auc", Interval(interval.estimate, interval.low, interval.high), len(labels)))
        elif kind == "pairs":
            outcomes = pair_outcomes(scores, table["pair"].tolist(), table["label"].tolist())
            found.append(("pairwise_accuracy", mean_interval(outcomes, rng), len(outcomes)))
        elif len(scores) >= 2 and np.ptp(scores) > 0 and np.ptp(table["rating"].to_numpy()) > 0:
            ratings = table["rating"].to_numpy(dtype=np.float64)
            found.append(("spearman", paired_interval(_spearman, scores, ratings, rng), len(scores)))
            found.append(("pearson", paired_interval(_pearson, scores, ratings, rng), len(scores)))
    return [
        Figure(judged.name, judged.split, group, name, interval.estimate, interval.low, interval.high, n)
        for name, interval, n in found
    ]


def judged_figures(judged: JudgedSet, scores: np.ndarray, by: Sequence[str] = (), seed: int = 0) -> list[Figure]:
    """Every figure the set's judgements allow, over all its events and then per group of each `by` column it has.

    Each figure's bootstrap is seeded by `seed` alone, so a figure does not change with what else is measured.
    """
    figures = _figures(judged, scores, "all", seed)
    for column in (column for column in by if column in judged.table.columns):
        for value, subset in judged.groups(column):
            mask = (judged.table[column].astype(str) == value).to_numpy()
            figures += _figures(subset, scores[mask], f"{column}={value}", seed)
    return figures

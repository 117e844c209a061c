"""The figures of a scored judged set, each with a bootstrap interval: AUC against binary labels, Spearman and
Pearson against ratings, pairwise accuracy of typical against atypical events (ties count one half), AUC against
the labels annotators agreed on (with the share they did not), and accuracy at probability .5."""

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
        figure: `auc`, `accuracy_at_half`, `spearman`, `pearson`, `pairwise_accuracy`, `reversal_accuracy`,
            `auc_agreed` (higher is better for each), or `unsure` (the share of events whose annotators agreed on
            no label; no interval).
        n: events pooled (pairs, for pairwise and reversal accuracy).
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


def _figures(
    judged: JudgedSet, scores: np.ndarray, probabilities: np.ndarray | None, group: str, seed: int
) -> list[Figure]:
    table = judged.table
    rng = np.random.default_rng(seed)
    found: list[tuple[str, Interval, int]] = []
    for kind in judged.kinds:
        if kind == "label":
            labels = table["label"].to_numpy()
            if len(set(labels.tolist())) == 2:  # a group of one class has no AUC
                interval = auc_interval(labels, scores, rng)
                found.append(("auc", Interval(interval.estimate, interval.low, interval.high), len(labels)))
            if judged.accuracy and probabilities is not None:
                right = ((probabilities > 0.5) == (labels == 1)).astype(np.float64)
                found.append(("accuracy_at_half", mean_interval(right, rng), len(labels)))
        elif kind == "agreed_label":
            agreed = table["agreed_label"]
            known = agreed.notna().to_numpy()
            labels = agreed[known].to_numpy(dtype=np.int64)
            if len(set(labels.tolist())) == 2:
                interval = auc_interval(labels, scores[known], rng)
                found.append(("auc_agreed", Interval(interval.estimate, interval.low, interval.high), len(labels)))
            found.append(("unsure", Interval(float(1 - known.mean()), float("nan"), float("nan")), len(known)))
        elif kind in ("pairs", "reversals"):
            column, figure = ("pair", "pairwise_accuracy") if kind == "pairs" else ("reversal_of", "reversal_accuracy")
            paired = (table[column] != "").to_numpy()
            outcomes = pair_outcomes(scores[paired], table[column][paired].tolist(), table["label"][paired].tolist())
            if len(outcomes):
                found.append((figure, mean_interval(outcomes, rng), len(outcomes)))
        elif len(scores) >= 2 and np.ptp(scores) > 0 and np.ptp(table["rating"].to_numpy()) > 0:
            ratings = table["rating"].to_numpy(dtype=np.float64)
            found.append(("spearman", paired_interval(_spearman, scores, ratings, rng), len(scores)))
            found.append(("pearson", paired_interval(_pearson, scores, ratings, rng), len(scores)))
    return [
        Figure(judged.name, judged.split, group, name, interval.estimate, interval.low, interval.high, n)
        for name, interval, n in found
    ]


def judged_figures(
    judged: JudgedSet,
    scores: np.ndarray,
    by: Sequence[str] = (),
    seed: int = 0,
    probabilities: np.ndarray | None = None,
) -> list[Figure]:
    """Every figure the set's judgements allow, over all its events and then per group of each of the set's own
    `by` columns and each `by` column it has. Accuracy at .5 (for a set that asks for it) needs `probabilities`.

    Each figure's bootstrap is seeded by `seed` alone, so a figure does not change with what else is measured.
    """
    figures = _figures(judged, scores, probabilities, "all", seed)
    columns = dict.fromkeys([*judged.by, *by])
    for column in (column for column in columns if column in judged.table.columns):
        for value, subset in judged.groups(column):
            mask = (judged.table[column].astype(str) == value).to_numpy()
            chosen = None if probabilities is None else probabilities[mask]
            figures += _figures(subset, scores[mask], chosen, f"{column}={value}", seed)
    return figures

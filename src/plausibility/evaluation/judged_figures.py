"""The figures of a scored judged set, each with a bootstrap interval: AUC against binary labels, Spearman and
Pearson against ratings, pairwise accuracy of typical against atypical events (ties count one half), AUC against
the labels annotators agreed on (with the share they did not), and accuracy at probability .5."""

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import pearsonr, spearmanr

from plausibility.benchmarks.datasets import SPLITS
from plausibility.benchmarks.judged_set import JudgedSet
from plausibility.bootstrap import Interval, mean_interval, paired_interval
from plausibility.evaluation.intervals import auc_interval

# The benchmarks' keys in their bootstraps' seeds (a file's: its name's checksum). Pep-3k and 20Q come first, so
# their intervals are those the model cards were written with.
BENCHMARK_KEYS = ("pep3k", "20q", "pap", "plain", "reversals")


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


def figure_rng(seed: int, benchmark: str, split: str) -> np.random.Generator:
    """The generator of one benchmark split's bootstrap: seeded by `seed`, the benchmark and the split, so a
    figure is the same whatever else is measured beside it, and whichever door prints it."""
    benchmark_key = BENCHMARK_KEYS.index(benchmark) if benchmark in BENCHMARK_KEYS else zlib.crc32(benchmark.encode())
    return np.random.default_rng([seed, benchmark_key, (*SPLITS, "all").index(split)])


def _figures(
    judged: JudgedSet,
    scores: np.ndarray,
    probabilities: np.ndarray | None,
    group: str,
    seed: int,
    n_resamples: int,
    confidence: float,
) -> list[Figure]:
    table = judged.table
    rng = figure_rng(seed, judged.name, judged.split)
    found: list[tuple[str, Interval, int]] = []
    for kind in judged.kinds:
        if kind == "label":
            labels = table["label"].to_numpy()
            if len(set(labels.tolist())) == 2:  # a group of one class has no AUC
                found.append(("auc", auc_interval(labels, scores, rng, confidence, n_resamples), len(labels)))
            if judged.accuracy and probabilities is not None:
                right = ((probabilities > 0.5) == (labels == 1)).astype(np.float64)
                found.append(("accuracy_at_half", mean_interval(right, rng, confidence, n_resamples), len(labels)))
        elif kind == "agreed_label":
            agreed = table["agreed_label"]
            known = agreed.notna().to_numpy()
            labels = agreed[known].to_numpy(dtype=np.int64)
            if len(set(labels.tolist())) == 2:
                interval = auc_interval(labels, scores[known], rng, confidence, n_resamples)
                found.append(("auc_agreed", interval, len(labels)))
            found.append(("unsure", Interval(float(1 - known.mean()), float("nan"), float("nan")), len(known)))
        elif kind in ("pairs", "reversals"):
            column, figure = ("pair", "pairwise_accuracy") if kind == "pairs" else ("reversal_of", "reversal_accuracy")
            paired = (table[column] != "").to_numpy()
            outcomes = pair_outcomes(scores[paired], table[column][paired].tolist(), table["label"][paired].tolist())
            if len(outcomes):
                found.append((figure, mean_interval(outcomes, rng, confidence, n_resamples), len(outcomes)))
        elif len(scores) >= 2 and np.ptp(scores) > 0 and np.ptp(table["rating"].to_numpy()) > 0:
            ratings = table["rating"].to_numpy(dtype=np.float64)
            for name, statistic in (("spearman", _spearman), ("pearson", _pearson)):
                interval = paired_interval(statistic, scores, ratings, rng, confidence, n_resamples)
                found.append((name, interval, len(scores)))
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
    n_resamples: int = 1000,
    confidence: float = 0.95,
) -> list[Figure]:
    """Every figure the set's judgements allow, over all its events and then per group of each of the set's own
    `by` columns and each `by` column it has. Accuracy at .5 (for a set that asks for it) needs `probabilities`.

    The one place a benchmark's figures are computed: `evaluate`, `report`, `export` and the demo all come here,
    so a figure has one value and one interval (`figure_rng`) wherever it is printed.
    """
    figures = _figures(judged, scores, probabilities, "all", seed, n_resamples, confidence)
    columns = dict.fromkeys([*judged.by, *by])
    for column in (column for column in columns if column in judged.table.columns):
        for value, subset in judged.groups(column):
            mask = (judged.table[column].astype(str) == value).to_numpy()
            chosen = None if probabilities is None else probabilities[mask]
            figures += _figures(subset, scores[mask], chosen, f"{column}={value}", seed, n_resamples, confidence)
    return figures

"""Probabilities against human judgements: a Platt map fitted on the judged valid halves, and how well any
probability map fits a judged half (ECE, accuracy at .5, and the best accuracy a single threshold reaches)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from plausibility.benchmarks.datasets import DATASET_TITLES
from plausibility.evaluation.judged_scores import ScoredSet
from plausibility.metrics import accuracy_at, best_threshold_accuracy, expected_calibration_error
from plausibility.scorers.calibration import Calibration, fit_platt


@dataclass(frozen=True)
class CalibrationFigures:
    """How a probability map fits one judged half.

    Attributes:
        ece: expected calibration error of the probabilities (10 equal-width bins; lower is better).
        accuracy: share of events on their side of .5.
        best_accuracy: the highest accuracy any single threshold on the scores reaches: what a map whose .5
            sat where the half is best split would give.
    """

    ece: float
    accuracy: float
    best_accuracy: float
    events: int


def fit_on_judgements(halves: Sequence[ScoredSet]) -> Calibration:
    """Platt scaling of the halves' scores (pooled) against their human labels: plausible 1, implausible 0."""
    scores = np.concatenate([half.scores for half in halves])
    labels = np.concatenate([half.labels for half in halves]).tolist()
    names = " and ".join(f"{DATASET_TITLES.get(h.judged.name, h.judged.name)} {h.judged.split}" for h in halves)
    return fit_platt(scores, labels, f"the {len(labels):,} judged events of {names}", target="judgements")


def calibration_figures(
    halves: Sequence[ScoredSet], to_probability: Callable[[np.ndarray], np.ndarray]
) -> dict[str, CalibrationFigures]:
    """`{"pep3k/test": figures, ...}` of a probability map on each half."""
    figures = {}
    for half in halves:
        labels = half.labels
        probabilities = np.asarray(to_probability(half.scores), dtype=np.float64)
        figures[f"{half.judged.name}/{half.judged.split}"] = CalibrationFigures(
            expected_calibration_error(labels, probabilities),
            accuracy_at(labels, probabilities),
            best_threshold_accuracy(labels, half.scores),
            len(labels),
        )
    return figures

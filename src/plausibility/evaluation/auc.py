"""ROC-AUC of any TripleScorer on the valid and test halves of Pep-3k and 20Q (thesis Table 6.4)."""

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from plausibility.atomic import atomic_write
from plausibility.benchmarks.datasets import DATASETS, SPLITS, LabelledEvent, load_plausibility_set
from plausibility.evaluation.metrics import roc_auc
from plausibility.progress import progress_bar
from plausibility.scorers.protocol import TripleScorer


@dataclass(frozen=True)
class ScoredHalf:
    """One half of an evaluation set with the scorer's score of each event and the AUC they reach."""

    dataset: str
    split: str
    events: tuple[LabelledEvent, ...]
    scores: np.ndarray
    auc: float


def evaluate_auc(
    scorer: TripleScorer, datasets: Sequence[str] = DATASETS, splits: Sequence[str] = SPLITS
) -> list[ScoredHalf]:
    """Score every event of each (dataset, split) half and compute its AUC, in the order given."""
    halves = [(dataset, split, load_plausibility_set(dataset, split)) for dataset in datasets for split in splits]
    results = []
    # One call per half: a scorer's batches, and so its floating-point sums, depend on what one call holds.
    with progress_bar("AUC", sum(len(events) for _, _, events in halves), "events") as advance:
        for dataset, split, events in halves:
            scores = np.asarray(scorer.score([event.triple for event in events]), dtype=np.float64)
            auc = roc_auc([event.label for event in events], scores)
            results.append(ScoredHalf(dataset, split, tuple(events), scores, auc))
            advance(len(events))
    return results


def auc_table(results: Sequence[ScoredHalf]) -> dict[str, dict[str, float]]:
    """`{"pep3k": {"valid": auc, "test": auc}, "20q": {...}}`."""
    table: dict[str, dict[str, float]] = {}
    for result in results:
        table.setdefault(result.dataset, {})[result.split] = result.auc
    return table


def write_metrics(results: Sequence[ScoredHalf], path: Path, about: dict[str, str]) -> None:
    """`metrics.json`: the AUC table plus `about` (the model SPEC, the probability mapping), written atomically."""
    document = {**auc_table(results), "_about": about}
    atomic_write(path, lambda file: json.dump(document, file, indent=2, sort_keys=False))


def write_scores(results: Sequence[ScoredHalf], path: Path) -> None:
    """Every event's score as TSV: dataset, split, label, subject, verb, object, score."""

    def write(file: TextIO) -> None:
        rows = csv.writer(file, delimiter="\t", lineterminator="\n")
        rows.writerow(["dataset", "split", "label", "subject", "verb", "object", "score"])
        for result in results:
            for event, score in zip(result.events, result.scores, strict=True):
                triple = event.triple
                words = [triple.subject, triple.verb, triple.object]
                rows.writerow([result.dataset, result.split, event.label, *words, f"{score:.6g}"])

    atomic_write(path, write)

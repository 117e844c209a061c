"""A scorer's score of each event of a judged set; a partial event (one argument empty) by the mean over fillers."""

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from plausibility.atomic import atomic_write
from plausibility.benchmarks.judged_set import JudgedSet
from plausibility.triple import Triple

# The generic nouns that fill an empty subject or object: a partial event scores as the mean over them.
DEFAULT_FILLERS = ("person", "thing")


def filled_triples(subject: str, verb: str, obj: str, fillers: Sequence[str]) -> list[Triple]:
    """The event itself, or for a partial one each filler in its empty slot."""
    if subject and obj:
        return [Triple(subject, verb, obj)]
    if not subject:
        return [Triple(filler, verb, obj) for filler in fillers]
    return [Triple(subject, verb, filler) for filler in fillers]


# Distinct triples of one set that worker processes score in one call: a fixed number, so that no score depends
# on how many workers share the units out.
UNIT_TRIPLES = 512

ScoreUnits = Callable[[Sequence[Sequence[Triple]]], list[np.ndarray]]


def score_judged_set(
    score: Callable[[Sequence[Triple]], np.ndarray], judged: JudgedSet, fillers: Sequence[str] = DEFAULT_FILLERS
) -> np.ndarray:
    """One score per event, in table order (float64): `score`'s, or a partial event's mean over fillers."""
    return score_judged_sets(lambda units: [score(unit) for unit in units], [judged], fillers)[0]


def score_judged_sets(
    score_units: ScoreUnits,
    sets: Sequence[JudgedSet],
    fillers: Sequence[str] = DEFAULT_FILLERS,
    unit: int | None = None,
) -> list[np.ndarray]:
    """`score_judged_set` of each set (rows of values where `score_units` gives rows, as a score and its probability),
    every set's distinct triples (in order of first appearance) sent to
    `score_units` at once: each set's in one call, as `evaluate_auc` and the model cards score a half, or with
    `unit` cut into units of that many for `api.scoring_pool`'s workers to share out. No score depends on a
    table's order or on the other sets; with `unit`, none on the number of workers either, though a model's
    scores may then differ from one call's by float rounding (which can break a tie the other way)."""
    rows = [
        [filled_triples(s, v, o, fillers) for s, v, o in zip(t["subject"], t["verb"], t["object"], strict=True)]
        for t in (judged.table for judged in sets)
    ]
    distinct = [list(dict.fromkeys(triple for row in table for triple in row)) for table in rows]
    sizes = [unit or max(1, len(triples)) for triples in distinct]
    units = [
        t[start : start + size] for t, size in zip(distinct, sizes, strict=True) for start in range(0, len(t), size)
    ]
    scored = iter(score_units(units))
    results = []
    for table, triples, size in zip(rows, distinct, sizes, strict=True):
        values = [value for _ in range(0, len(triples), size) for value in np.asarray(next(scored)).tolist()]
        scores = dict(zip(triples, values, strict=True))
        results.append(np.array([np.mean([scores[t] for t in row], axis=0) for row in table], dtype=np.float64))
    return results


def write_judged_scores(scored: Sequence[tuple[JudgedSet, np.ndarray]], fillers: Sequence[str], path: Path) -> None:
    """Every event's score as TSV: benchmark, split, the event, its judgements, the score (full precision), and
    for a partial event the fillers its score is the mean over."""
    frames = []
    for judged, scores in scored:
        table = judged.table
        partial = (table["subject"] == "") | (table["object"] == "")
        frames.append(
            table.assign(
                benchmark=judged.name,
                split=judged.split,
                score=scores,
                fillers=np.where(partial, ",".join(fillers), ""),
            )
        )
    joined = pd.concat(frames, ignore_index=True)
    first = ["benchmark", "split", "subject", "verb", "object"]
    joined = joined[[*first, *(c for c in joined.columns if c not in (*first, "score", "fillers")), "score", "fillers"]]
    atomic_write(path, lambda handle: joined.to_csv(handle, sep="\t", index=False, float_format="%.17g"))

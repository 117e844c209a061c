"""A scorer's score of each event of a judged set; a partial event (one argument empty) by the mean over fillers."""

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from plausibility.atomic import atomic_write
from plausibility.benchmarks.judged_set import JudgedSet
from plausibility.scorers.protocol import TripleScorer
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


def score_judged_set(scorer: TripleScorer, judged: JudgedSet, fillers: Sequence[str] = DEFAULT_FILLERS) -> np.ndarray:
    """One score per event, in table order (float64): the scorer's own, or a partial event's mean over fillers.

    Every distinct triple is scored once, in one call, so the scores do not depend on the table's order.
    """
    table = judged.table
    rows = [
        filled_triples(s, v, o, fillers)
        for s, v, o in zip(table["subject"], table["verb"], table["object"], strict=True)
    ]
    distinct = list(dict.fromkeys(triple for row in rows for triple in row))
    scores = dict(zip(distinct, np.asarray(scorer.score(distinct), dtype=np.float64).tolist(), strict=True))
    return np.array([np.mean([scores[triple] for triple in row]) for row in rows], dtype=np.float64)


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
    atomic_write(path, lambda handle: joined.to_csv(handle, sep="\t", index=False, float_format="%r"))

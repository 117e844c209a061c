"""A scorer's score of each event of a judged set, read as its lemmas as `plausibility score` reads a query; a
partial event (one argument empty) by the mean over fillers.

With `judged_figures`, the evaluation core: `evaluate`, `report`, `export` and the demo score every benchmark
through `score_sets` and compute its figures through `figures_of`.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from plausibility.atomic import atomic_write
from plausibility.benchmarks.judged_set import DEFAULT_FILLERS, JudgedSet
from plausibility.evaluation.judged_figures import Figure, judged_figures
from plausibility.lexicon.event_lemmas import EventLemmas
from plausibility.scorers.protocol import TripleScorer
from plausibility.triple import Triple


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


@dataclass(frozen=True)
class ScoredSet:
    """A judged set with the score of each of its events, in table order, and their probabilities where they were
    asked for (accuracy at .5 needs them)."""

    judged: JudgedSet
    scores: np.ndarray
    probabilities: np.ndarray | None

    @property
    def labels(self) -> np.ndarray:
        return self.judged.table["label"].to_numpy()


def with_probabilities(scorer: TripleScorer) -> Callable[[Sequence[Triple]], np.ndarray]:
    """A function that gives triples' scores and their probabilities, `(n, 2)`."""

    def score_and_probability(triples: Sequence[Triple]) -> np.ndarray:
        scores = np.asarray(scorer.score(list(triples)), dtype=np.float64)
        return np.column_stack([scores, scorer.to_probability(scores)])

    return score_and_probability


def units_of(scorer: TripleScorer, probabilities: bool = True) -> ScoreUnits:
    """`score_units` for a scorer in this process: each unit's scores and (`probabilities`) their probabilities,
    `(n, 2)`. Without, no calibration is found or fitted for figures that need none."""
    score = with_probabilities(scorer) if probabilities else lambda unit: scorer.score(list(unit))
    return lambda units: [np.asarray(score(unit), dtype=np.float64) for unit in units]


def score_sets(
    score_units: ScoreUnits,
    sets: Sequence[JudgedSet],
    fillers: Sequence[str] = DEFAULT_FILLERS,
    unit: int | None = None,
    as_given: bool = False,
) -> list[ScoredSet]:
    """Every set scored by `score_units` (which gives each event's score, or its score and probability), as
    `score_judged_sets` shares the work out."""
    values = score_judged_sets(score_units, sets, fillers, unit, as_given)
    return [
        ScoredSet(judged, both, None) if both.ndim == 1 else ScoredSet(judged, both[:, 0], both[:, 1])
        for judged, both in zip(sets, values, strict=True)
    ]


def figures_of(
    scored: Sequence[ScoredSet],
    by: Sequence[str] = (),
    seed: int = 0,
    n_resamples: int = 1000,
    confidence: float = 0.95,
) -> list[Figure]:
    """Every figure of every scored set (`judged_figures`); `by` splits the sets read from files (split `all`),
    a named benchmark by its own columns only."""
    return [
        figure
        for one in scored
        for figure in judged_figures(
            one.judged,
            one.scores,
            by if one.judged.split == "all" else (),
            seed,
            one.probabilities,
            n_resamples,
            confidence,
        )  # fmt: skip
    ]


def score_judged_set(
    score: Callable[[Sequence[Triple]], np.ndarray], judged: JudgedSet, fillers: Sequence[str] = DEFAULT_FILLERS
) -> np.ndarray:
    """One score per event, in table order (float64): `score`'s of its lemmas, or a partial event's mean over
    fillers."""
    return score_judged_sets(lambda units: [score(unit) for unit in units], [judged], fillers)[0]


def score_judged_sets(
    score_units: ScoreUnits,
    sets: Sequence[JudgedSet],
    fillers: Sequence[str] = DEFAULT_FILLERS,
    unit: int | None = None,
    as_given: bool = False,
) -> list[np.ndarray]:
    """`score_judged_set` of each set (rows of values where `score_units` gives rows, as a score and its probability),
    each event read as its lemmas (`EventLemmas`) unless `as_given`, every set's distinct triples (in order of first
    appearance) sent to `score_units` at once: each set's in one call, as the model cards score a half, or with
    `unit` cut into units of that many for `api.scoring_pool`'s workers to share out. No score depends on a
    table's order or on the other sets; with `unit`, none on the number of workers either, though a model's
    scores may then differ from one call's by float rounding (which can break a tie the other way)."""
    lemmas = list if as_given else EventLemmas()
    rows = [
        [lemmas(filled_triples(*event, fillers)) for event in zip(t["subject"], t["verb"], t["object"], strict=True)]
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


def scores_table(scored: Sequence[ScoredSet], fillers: Sequence[str]) -> pd.DataFrame:
    """Every event's score: benchmark, split, the event, its judgements, the score, and for a partial event the
    fillers its score is the mean over."""
    frames = []
    for one in scored:
        judged, scores = one.judged, one.scores
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
    return joined[[*first, *(c for c in joined.columns if c not in (*first, "score", "fillers")), "score", "fillers"]]


def write_judged_scores(scored: Sequence[ScoredSet], fillers: Sequence[str], path: Path) -> None:
    """`scores_table` as TSV, the scores at full precision."""
    table = scores_table(scored, fillers)
    atomic_write(path, lambda handle: table.to_csv(handle, sep="\t", index=False, float_format="%.17g"))

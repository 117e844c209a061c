"""Abstraction grids of a set of events, each distinct cell scored once, and their consistency (CCΔ, LER)."""

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from plausibility.errors import DataFormatError, PlausibilityError
from plausibility.evaluation.consistency import concavity_delta, grid_windows, local_extremum_rate, percentile_ranks
from plausibility.lexicon.abstractions import AbstractionGrid
from plausibility.lexicon.event_lemmas import EventLemmas
from plausibility.lexicon.training_lexicon import TrainingLexicon, lexicon_of
from plausibility.scorers.cells import grid_scores
from plausibility.scorers.protocol import GridSearcher, TripleScorer
from plausibility.triple import Triple


class ProbabilityRangeError(PlausibilityError):
    """A scorer's `to_probability` returned values outside [0, 1] (or not finite)."""


@dataclass(frozen=True)
class ScoredGrid:
    """One event's grid with every cell's score, probability and percentile rank, each shaped `grid.shape`.

    `percentiles` rank each cell among all distinct cells of the measurement (the scale-free estimates).
    """

    grid: AbstractionGrid
    scores: np.ndarray
    probabilities: np.ndarray
    percentiles: np.ndarray = field(repr=False)

    @property
    def windows(self) -> np.ndarray:
        """Every window of three along the grid's rows and columns; shape (n_windows, 3)."""
        return grid_windows(self.probabilities)

    @property
    def concavity_delta(self) -> float | None:
        """This event's CCΔ, or None when no axis is long enough to hold a window."""
        windows = self.windows
        return concavity_delta(windows) if len(windows) else None

    @property
    def scale_free_concavity_delta(self) -> float | None:
        windows = grid_windows(self.percentiles)
        return concavity_delta(windows) if len(windows) else None

    @property
    def local_extremum_rate(self) -> float | None:
        windows = self.windows
        return local_extremum_rate(windows) if len(windows) else None


@dataclass(frozen=True)
class ConsistencyResult:
    """CCΔ (on probabilities and scale-free) and LER pooled over every event's windows, with the grids.

    Attributes:
        n_unique_triples: distinct abstractions scored (each once, however many grids share it).
        n_grid_triples: cells over all grids, i.e. what scoring every grid separately would cost.
        lexicon: the hierarchy and WSD the grids were laid out in (`TrainingLexicon.describe`).
    """

    grids: list[ScoredGrid]
    concavity_delta: float
    scale_free_concavity_delta: float
    local_extremum_rate: float
    n_windows: int
    n_unique_triples: int
    n_grid_triples: int
    probability_mapping: str
    lexicon: dict[str, object]

    def summary(self) -> dict[str, float]:
        """The pooled figures, as `consistency.json` and a model card's `evaluation.json` record them."""
        return {
            "ccd": self.concavity_delta,
            "ccd_scale_free": self.scale_free_concavity_delta,
            "ler": self.local_extremum_rate,
            "windows": self.n_windows,
        }


def score_grids(
    scorer: TripleScorer, grids: Sequence[AbstractionGrid], chunk_size: int = 1024, progress: bool = False
) -> tuple[list[ScoredGrid], int]:
    """Score every distinct cell of all grids once (ConceptMax: its running maximum) and lay the values out.

    Returns:
        The scored grids in input order, and the number of distinct cells.
    """
    scores = grid_scores(scorer, grids, chunk_size=chunk_size, progress=progress)
    flat = np.concatenate([np.zeros(0), *(values.ravel() for values in scores)])
    probabilities = np.asarray(scorer.to_probability(flat), dtype=np.float64)
    if probabilities.shape != flat.shape:
        raise ProbabilityRangeError(f"the scorer returned {probabilities.shape} probabilities for {flat.shape} scores")
    if not (np.all(np.isfinite(probabilities)) and np.all((probabilities >= 0) & (probabilities <= 1))):
        raise ProbabilityRangeError(
            f"the scorer's probabilities ({scorer.probability_mapping}) leave [0, 1]; fix its to_probability"
        )
    # A cell's value depends only on its own senses (its abstractions are the prefixes of its chains), so
    # the distinct cells are ranked once each, however many grids share them.
    distinct: dict[object, float] = {}
    for grid, values in zip(grids, scores, strict=True):
        distinct.update(zip(grid.cells(), values.ravel().tolist(), strict=True))
    rank = dict(zip(distinct, percentile_ranks(list(distinct.values())).tolist(), strict=True))
    scored, offset = [], 0
    for grid, values in zip(grids, scores, strict=True):
        cells = grid.cells()
        scored.append(
            ScoredGrid(
                grid,
                values,
                probabilities[offset : offset + len(cells)].reshape(grid.shape),
                np.array([rank[cell] for cell in cells], dtype=np.float64).reshape(grid.shape),
            )
        )
        offset += len(cells)
    return scored, len(distinct)


def _as_events(events: Sequence[Triple | Sequence[str]]) -> list[Triple]:
    """Events as `Triple`s: a `(subject, verb, object)` tuple or a string of three words is read as written."""
    triples = []
    for index, event in enumerate(events):
        if isinstance(event, Triple):
            triples.append(event)
            continue
        words = event.split() if isinstance(event, str) else list(event)
        if len(words) != 3 or not all(isinstance(word, str) for word in words):
            raise DataFormatError(f"event {index} ({event!r}) is not a triple; give (subject, verb, object) words")
        triples.append(Triple(*words))
    return triples


def measure_consistency(
    scorer: TripleScorer,
    events: Sequence[Triple | Sequence[str]],
    lexicon: TrainingLexicon | None = None,
    chunk_size: int = 1024,
    progress: bool = False,
    as_given: bool = False,
) -> ConsistencyResult:
    """Lay out every event's grid in `lexicon` (default: `lexicon_of(scorer.lexicon)`), score it, pool CCΔ and LER.

    Events are `Triple`s, `(subject, verb, object)` tuples or strings of three words, each read as its lemmas as
    `plausibility score` reads a query (`as_given`: as written), so an event's own cell gets the score `score`
    gives it. ConceptMax is measured on the grids it searches: given another lexicon, it searches that one.

    Raises:
        DataFormatError: an event is not three words.
        PlausibilityError: no event has an axis of three or more abstractions, so there is nothing to measure.
    """
    lexicon = lexicon or lexicon_of(scorer.lexicon)
    events = _as_events(events) if as_given else EventLemmas(lexicon.hierarchy)(_as_events(events))
    if isinstance(scorer, GridSearcher) and scorer.lexicon != lexicon:
        scorer = scorer.over(lexicon)
    grids = lexicon.abstractor.grids(events)
    scored, n_unique = score_grids(scorer, grids, chunk_size=chunk_size, progress=progress)
    windows = np.concatenate([np.zeros((0, 3)), *(grid.windows for grid in scored)])
    if len(windows) == 0:
        raise PlausibilityError(
            f"none of the {len(events)} events has three abstractions in a row; lower min_depth or check the words"
        )
    percentile_windows = np.concatenate([np.zeros((0, 3)), *(grid_windows(grid.percentiles) for grid in scored)])
    return ConsistencyResult(
        grids=scored,
        concavity_delta=concavity_delta(windows),
        scale_free_concavity_delta=concavity_delta(percentile_windows),
        local_extremum_rate=local_extremum_rate(windows),
        n_windows=len(windows),
        n_unique_triples=n_unique,
        n_grid_triples=sum(grid.shape[0] * grid.shape[1] for grid in grids),
        probability_mapping=scorer.probability_mapping,
        lexicon=lexicon.describe(),
    )

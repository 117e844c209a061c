"""Abstraction grids of a set of events, scored once per unique triple, and their consistency (CCΔ, LER)."""

import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from plausibility.errors import PlausibilityError
from plausibility.evaluation.consistency import concavity_delta, grid_windows, local_extremum_rate
from plausibility.lexicon.abstractions import AbstractionGrid, Abstractor
from plausibility.scoring.protocols import TripleScorer
from plausibility.triple import Triple


class ProbabilityRangeError(PlausibilityError):
    """A scorer's `to_probability` returned values outside [0, 1] (or not finite)."""


@dataclass(frozen=True)
class ScoredGrid:
    """One event's grid with the probability of every cell; `probabilities` has shape `grid.shape`."""

    grid: AbstractionGrid
    probabilities: np.ndarray

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
    def local_extremum_rate(self) -> float | None:
        windows = self.windows
        return local_extremum_rate(windows) if len(windows) else None


@dataclass(frozen=True)
class ConsistencyResult:
    """CCΔ and LER pooled over the windows of every event's grid, with the grids they came from.

    Attributes:
        n_unique_triples: abstraction triples actually scored (each once, however many grids share it).
        n_grid_triples: cells over all grids, i.e. what scoring every grid separately would cost.
    """

    grids: list[ScoredGrid]
    concavity_delta: float
    local_extremum_rate: float
    n_windows: int
    n_unique_triples: int
    n_grid_triples: int
    probability_mapping: str


def score_grids(
    scorer: TripleScorer, grids: Sequence[AbstractionGrid], batch_size: int = 1024, progress: bool = False
) -> tuple[list[ScoredGrid], int]:
    """Score the unique triples of all grids once, in batches, and lay the probabilities back out.

    Returns:
        The scored grids in input order, and the number of unique triples scored.
    """
    unique = sorted({t for grid in grids for t in grid.triples()}, key=lambda t: (t.subject, t.verb, t.object))
    batches = range(0, len(unique), batch_size)
    if progress:
        from rich.console import Console
        from rich.progress import track

        batches = track(batches, description="scoring abstractions", console=Console(stderr=True))
    scores = [np.asarray(scorer.score(unique[start : start + batch_size]), dtype=np.float64) for start in batches]
    probabilities = np.asarray(scorer.to_probability(np.concatenate([np.zeros(0), *scores])), dtype=np.float64)
    if probabilities.shape != (len(unique),):
        raise ProbabilityRangeError(f"the scorer returned {probabilities.shape} values for {len(unique)} triples")
    if not (np.all(np.isfinite(probabilities)) and np.all((probabilities >= 0) & (probabilities <= 1))):
        raise ProbabilityRangeError(
            f"the scorer's probabilities ({scorer.probability_mapping}) leave [0, 1]; fix its to_probability"
        )
    lookup: dict[Triple, float] = dict(zip(unique, probabilities.tolist(), strict=True))
    scored = [
        ScoredGrid(grid, np.array([lookup[t] for t in grid.triples()], dtype=np.float64).reshape(grid.shape))
        for grid in grids
    ]
    return scored, len(unique)


def measure_consistency(
    scorer: TripleScorer,
    events: Sequence[Triple],
    abstractor: Abstractor,
    batch_size: int = 1024,
    progress: bool = False,
) -> ConsistencyResult:
    """Build every event's grid, score each unique abstraction once, and pool CCΔ and LER over all windows.

    Raises:
        PlausibilityError: no event has an axis of three or more abstractions, so there is nothing to measure.
    """
    grids = abstractor.grids(events)
    scored, n_unique = score_grids(scorer, grids, batch_size=batch_size, progress=progress and sys.stderr.isatty())
    windows = np.concatenate([np.zeros((0, 3)), *(grid.windows for grid in scored)])
    if len(windows) == 0:
        raise PlausibilityError(
            f"none of the {len(events)} events has three abstractions in a row; lower min_depth or check the words"
        )
    return ConsistencyResult(
        grids=scored,
        concavity_delta=concavity_delta(windows),
        local_extremum_rate=local_extremum_rate(windows),
        n_windows=len(windows),
        n_unique_triples=n_unique,
        n_grid_triples=sum(len(grid.subjects) * len(grid.objects) for grid in grids),
        probability_mapping=scorer.probability_mapping,
    )

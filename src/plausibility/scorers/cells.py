"""Scores of the cells of abstraction grids, each distinct cell scored once over all grids of a call."""

from collections.abc import Hashable, MutableMapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from plausibility.progress import progress_bar
from plausibility.scorers.protocol import GridSearcher, SenseScorer, TripleScorer

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction, AbstractionGrid


def cell_key(scorer: TripleScorer, cell: "Abstraction") -> Hashable:
    """What makes two cells the same to `scorer`: their senses if it reads senses, else their text."""
    return cell if isinstance(scorer, SenseScorer) else cell.triple


def score_cells(scorer: TripleScorer, cells: Sequence["Abstraction"]) -> np.ndarray:
    """The scorer's score of each cell, through its senses where the scorer reads them."""
    if isinstance(scorer, SenseScorer):
        return np.asarray(scorer.score_abstractions(cells), dtype=np.float64)
    return np.asarray(scorer.score([cell.triple for cell in cells]), dtype=np.float64)


def raw_grid_scores(
    scorer: TripleScorer,
    grids: Sequence["AbstractionGrid"],
    chunk_size: int = 1024,
    progress: bool = False,
    known: MutableMapping[Hashable, float] | None = None,
) -> list[np.ndarray]:
    """The wrapped scorer's own score of every cell, each grid shaped `grid.shape`, input order.

    Distinct cells (by `cell_key`) are scored once, in chunks of `chunk_size`, in a fixed order so that
    the result never depends on how events were grouped; `known` holds scores from earlier calls and
    receives the new ones.
    """
    known = {} if known is None else known
    wanted: dict[Hashable, Abstraction] = {}
    for grid in grids:
        for cell in grid.cells():
            key = cell_key(scorer, cell)
            if key not in known:
                wanted.setdefault(key, cell)
    new = sorted(wanted, key=lambda key: str(wanted[key]))
    with progress_bar("scoring abstractions", len(new), "cells", wanted=progress) as advance:
        for start in range(0, len(new), chunk_size):
            chunk = new[start : start + chunk_size]
            known.update(zip(chunk, score_cells(scorer, [wanted[key] for key in chunk]).tolist(), strict=True))
            advance(len(chunk))
    return [
        np.array([known[cell_key(scorer, cell)] for cell in grid.cells()], dtype=np.float64).reshape(grid.shape)
        for grid in grids
    ]


def grid_scores(
    scorer: TripleScorer, grids: Sequence["AbstractionGrid"], chunk_size: int = 1024, progress: bool = False
) -> list[np.ndarray]:
    """Every cell's score as `scorer` gives it: a grid searcher's own (ConceptMax's running maximum), else per cell."""
    if isinstance(scorer, GridSearcher):
        return scorer.grid_scores(grids, chunk_size=chunk_size, progress=progress)
    return raw_grid_scores(scorer, grids, chunk_size=chunk_size, progress=progress)

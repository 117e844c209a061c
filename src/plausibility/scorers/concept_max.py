"""ConceptMax: an event is as plausible as its most plausible abstraction (thesis 6.4.3), around any scorer."""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

import numpy as np

from plausibility.scorers.cells import raw_grid_scores
from plausibility.scorers.protocol import TripleScorer
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction, AbstractionGrid
    from plausibility.lexicon.training_lexicon import TrainingLexicon


@dataclass(frozen=True, slots=True)
class AbstractedScore:
    """An event's ConceptMax score and the abstraction that reached it."""

    event: Triple
    score: float
    abstraction: "Abstraction"


def running_maximum(grid: np.ndarray) -> np.ndarray:
    """Each cell's maximum over the cells at least as general in both slots (rows and columns before it).

    Axes list the most general concept first, so this is the cumulative maximum down the rows, then along
    the columns. Every row and column of the result is non-decreasing: no cell is a strict local extremum.
    """
    return np.maximum.accumulate(np.maximum.accumulate(np.asarray(grid, dtype=np.float64), axis=0), axis=1)


class ConceptMax:
    """Hard maximum of a wrapped scorer over every abstraction (subject chain x object chain) of an event.

    ConceptMax of an abstraction is the maximum over that abstraction's own abstractions, which are the
    cells of the event's grid at least as general in both slots: its grid is the 2-D running maximum of the
    wrapped scorer's grid (`grid_scores`), consistent by construction (LER 0), and an event's score is the
    last cell of it, the maximum of the whole grid.

    With `deduplicate`, the cells of all events in one call are scored once each (events share hypernyms
    and verbs), and the scores of the last `memory` cells are kept for later calls: an evaluation scores
    each abstraction once over all its batches. Without it, each event's grid is scored by its own call,
    as a naive loop would. Both give identical scores, as long as the wrapped scorer does not change while
    wrapped (a model in training wraps itself afresh for each evaluation batch).

    Args:
        scorer: any TripleScorer (kept as `searched`: the scorer whose grid is searched).
        lexicon: the hierarchy and WSD its grids are laid out in (a trained model's own, or the bundled one).
    """

    def __init__(
        self, scorer: TripleScorer, lexicon: "TrainingLexicon", deduplicate: bool = True, memory: int = 1_000_000
    ) -> None:
        self.searched = scorer
        self.lexicon = lexicon
        self.deduplicate = deduplicate
        self.memory = memory
        self._known: dict[Hashable, float] = {}

    def over(self, lexicon: "TrainingLexicon") -> "ConceptMax":
        """The same maximum over grids laid out in another lexicon (its memory starts empty)."""
        return ConceptMax(self.searched, lexicon, self.deduplicate, self.memory)

    def around(self, scorer: TripleScorer) -> "ConceptMax":
        """The same maximum of another scorer's grid, e.g. the searched scorer calibrated (memory starts empty)."""
        return ConceptMax(scorer, self.lexicon, self.deduplicate, self.memory)

    @property
    def probability_mapping(self) -> str:
        # A maximum commutes with the wrapped scorer's monotone map.
        return self.searched.probability_mapping

    def raw_grid_scores(
        self, grids: Sequence["AbstractionGrid"], chunk_size: int = 1024, progress: bool = False
    ) -> list[np.ndarray]:
        """The wrapped scorer's score of every cell of each grid (shape `grid.shape`), input order."""
        if not self.deduplicate:
            return [raw_grid_scores(self.searched, [grid], chunk_size=chunk_size)[0] for grid in grids]
        scores = raw_grid_scores(self.searched, grids, chunk_size=chunk_size, progress=progress, known=self._known)
        excess = len(self._known) - self.memory
        if excess > 0:  # forget the oldest (dicts keep insertion order)
            for key in list(islice(self._known, excess)):
                del self._known[key]
        return scores

    def grid_scores(
        self, grids: Sequence["AbstractionGrid"], chunk_size: int = 1024, progress: bool = False
    ) -> list[np.ndarray]:
        """ConceptMax's score of every cell of each grid: the running maximum of the wrapped scorer's grid."""
        return [running_maximum(raw) for raw in self.raw_grid_scores(grids, chunk_size=chunk_size, progress=progress)]

    def explain(self, triples: Sequence[Triple]) -> list[AbstractedScore]:
        """Each event's score with its arg-max abstraction (the first in row-major order on ties), input order."""
        grids = self.lexicon.abstractor.grids(triples)
        results = []
        for grid, scores in zip(grids, self.raw_grid_scores(grids), strict=True):
            best = int(np.argmax(scores))
            results.append(AbstractedScore(grid.event, float(scores.flat[best]), grid.cells()[best]))
        return results

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """The maximum score over each event's abstractions, input order."""
        return np.array([result.score for result in self.explain(triples)], dtype=np.float64)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return self.searched.to_probability(scores)

"""Why an event scores as it does: the abstraction of its grid that any scorer finds most plausible."""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from plausibility.lexicon.abstractions import Abstraction, AbstractionGrid
from plausibility.lexicon.training_lexicon import TrainingLexicon, lexicon_of
from plausibility.scorers.cells import grid_scores
from plausibility.scorers.protocol import GridSearcher, TripleScorer
from plausibility.triple import Triple

# Explanations search grids from the thesis's min depth unless told otherwise: a model's own lexicon may start
# deeper (the shipped ones at 8), where few abstractions are left above an event's words. A ConceptMax keeps
# its own, since its score is the best cell of its own grid.
EXPLANATION_MIN_DEPTH = 4


@dataclass(frozen=True)
class Explanation:
    """An event's own probability, the arg-max abstraction of its grid, and the best few, highest first.

    `subject_in_wordnet` / `object_in_wordnet` are False for a word WordNet lacks: such a slot keeps the
    surface word alone, so the explanation can only abstract the other slot.
    """

    event: Triple
    probability: float
    best: Abstraction
    best_probability: float
    top: tuple[tuple[Abstraction, float], ...]
    subject_in_wordnet: bool
    object_in_wordnet: bool

    def record(self) -> dict[str, object]:
        """As `plausibility score --json` and the HTTP API give it: the best abstraction, then the top few."""
        return {
            "best": str(self.best),
            "best_probability": self.best_probability,
            "top": [{"abstraction": str(cell), "probability": probability} for cell, probability in self.top],
        }


def grid_source(scorer: TripleScorer, min_depth: int | None = None) -> tuple[TripleScorer, TrainingLexicon]:
    """The scorer whose grid is searched (a grid searcher's searched one) and the lexicon that lays it out.

    `min_depth` overrides the lexicon's own (`lexicon_of`); None keeps it.
    """
    searched = scorer.searched if isinstance(scorer, GridSearcher) else scorer
    return searched, lexicon_of(scorer.lexicon, min_depth=min_depth)


def at_min_depth(scorer: TripleScorer, min_depth: int | None) -> TripleScorer:
    """A grid searcher (ConceptMax) taking its maximum over grids of another min depth; any other scorer as it is.

    With this, what ConceptMax scores and what `explain` lists for it come from the same grids.
    """
    if min_depth is None or not isinstance(scorer, GridSearcher):
        return scorer
    return scorer.over(lexicon_of(scorer.lexicon, min_depth=min_depth))


def explains_itself(scorer: TripleScorer) -> bool:
    """Whether a scorer's answer is itself an explanation: ConceptMax scores an event by its arg-max abstraction."""
    return isinstance(scorer, GridSearcher)


@dataclass(frozen=True)
class GridProbabilities:
    """An event's grid with the probability of each of its cells, as `explain` ranks them.

    `probabilities` (shape `grid.shape`, a subject concept per row) are the searched scorer's own, cell by
    cell; a ConceptMax's score is their running maximum (`plausibility.scorers.concept_max.running_maximum`).
    """

    grid: AbstractionGrid
    probabilities: np.ndarray

    @property
    def ranking(self) -> np.ndarray:
        """The cells' row-major indices, most probable first; ties go to the most general, as row-major lists it."""
        return np.argsort(-self.probabilities.ravel(), kind="stable")

    @property
    def best_cell(self) -> tuple[int, int]:
        """The row (subject concept) and column (object concept) of the abstraction that explains the event."""
        row, column = divmod(int(self.ranking[0]), self.grid.shape[1])
        return row, column

    def explanation(self, top: int = 3) -> Explanation:
        """The arg-max abstraction of the grid, with the best `top` cells, highest first."""
        cells = self.grid.cells()
        probabilities = self.probabilities.ravel()
        order = self.ranking
        return Explanation(
            event=self.grid.event,
            probability=float(probabilities[-1]),  # the event is its grid's last cell
            best=cells[order[0]],
            best_probability=float(probabilities[order[0]]),
            top=tuple((cells[i], float(probabilities[i])) for i in order[:top]),
            subject_in_wordnet=self.grid.subjects[-1].synset is not None,
            object_in_wordnet=self.grid.objects[-1].synset is not None,
        )


def grid_probabilities(
    scorer: TripleScorer, triples: Sequence[Triple], min_depth: int | None = None
) -> list[GridProbabilities]:
    """Score every abstraction of each event once (deduplicated across events) and lay them out, input order.

    `min_depth` lays the grids out with another min depth than the scorer's lexicon has (give a ConceptMax
    through `at_min_depth` first, so its own score uses the same grids); None searches a ConceptMax's own
    grids, and any other scorer's from `EXPLANATION_MIN_DEPTH`.
    """
    if min_depth is None and not explains_itself(scorer):
        min_depth = EXPLANATION_MIN_DEPTH
    searched, lexicon = grid_source(scorer, min_depth)
    grids = lexicon.abstractor.grids(triples)
    return [
        GridProbabilities(
            grid, np.asarray(searched.to_probability(scores.ravel()), dtype=np.float64).reshape(grid.shape)
        )
        for grid, scores in zip(grids, grid_scores(searched, grids), strict=True)
    ]


def explain(
    scorer: TripleScorer, triples: Sequence[Triple], top: int = 3, min_depth: int | None = None
) -> list[Explanation]:
    """The arg-max abstraction of each event's grid and the best `top`, input order (see `grid_probabilities`)."""
    return [grid.explanation(top) for grid in grid_probabilities(scorer, triples, min_depth)]


class ExplanationColumns:
    """An annotator adding the arg-max abstraction of each triple and its probability to a scored table."""

    def __init__(self, scorer: TripleScorer, min_depth: int | None = None) -> None:
        self.scorer = scorer
        self.min_depth = min_depth

    def __call__(self, triples: Sequence[Triple]) -> dict[str, list[object]]:
        explanations = explain(self.scorer, triples, top=1, min_depth=self.min_depth)
        return {
            "abstraction": [str(e.best) for e in explanations],
            "abstraction_probability": [e.best_probability for e in explanations],
        }

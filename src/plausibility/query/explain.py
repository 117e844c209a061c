"""Why an event scores as it does: the abstraction of its grid that any scorer finds most plausible."""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from plausibility.lexicon.abstractions import Abstraction
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


def explain(
    scorer: TripleScorer, triples: Sequence[Triple], top: int = 3, min_depth: int | None = None
) -> list[Explanation]:
    """Score every abstraction of each event once (deduplicated across events) and rank them, input order.

    `min_depth` lays the grids out with another min depth than the scorer's lexicon has (give a ConceptMax
    through `at_min_depth` first, so its own score uses the same grids); None searches a ConceptMax's own
    grids, and any other scorer's from `EXPLANATION_MIN_DEPTH`.
    """
    if min_depth is None and not explains_itself(scorer):
        min_depth = EXPLANATION_MIN_DEPTH
    searched, lexicon = grid_source(scorer, min_depth)
    grids = lexicon.abstractor.grids(triples)
    explanations = []
    for grid, scores in zip(grids, grid_scores(searched, grids), strict=True):
        cells = grid.cells()
        probabilities = np.asarray(searched.to_probability(scores.ravel()), dtype=np.float64)
        # Stable sort on the negated values: ties go to the most general abstraction, as row-major order lists it.
        order = np.argsort(-probabilities, kind="stable")
        explanations.append(
            Explanation(
                event=grid.event,
                probability=float(probabilities[-1]),  # the event is its grid's last cell
                best=cells[order[0]],
                best_probability=float(probabilities[order[0]]),
                top=tuple((cells[i], float(probabilities[i])) for i in order[:top]),
                subject_in_wordnet=grid.subjects[-1].synset is not None,
                object_in_wordnet=grid.objects[-1].synset is not None,
            )
        )
    return explanations


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

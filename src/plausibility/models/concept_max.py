"""ConceptMax: an event is as plausible as its most plausible abstraction (thesis 6.4.3), around any scorer."""

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

import numpy as np

from plausibility.errors import PlausibilityError
from plausibility.models.training_lexicon import lexicon_of
from plausibility.scoring.protocols import TripleScorer
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import AbstractionGrid, Abstractor


@dataclass(frozen=True, slots=True)
class AbstractedScore:
    """An event's ConceptMax score and the abstraction that reached it."""

    event: Triple
    score: float
    abstraction: Triple


def training_abstractions(grid: "AbstractionGrid", count: int, rng: np.random.Generator) -> list[Triple]:
    """The event itself, then up to `count` of its other abstractions drawn without replacement.

    Training scores only these (thesis: three plus the original) and reduces them with LogSumExp; an
    event with fewer abstractions yields a shorter list, which the caller masks.
    """
    others = [triple for triple in grid.triples() if triple != grid.event]
    picks = rng.choice(len(others), size=min(count, len(others)), replace=False)
    return [grid.event, *(others[i] for i in sorted(picks))]


class ConceptMax:
    """Hard maximum of a wrapped scorer over every abstraction (subject chain x object chain) of an event.

    With `deduplicate`, the abstractions of all events in one call are scored once each (events share
    hypernyms and verbs), and the scores of the last `memory` abstractions are kept for later calls: an
    evaluation scores each abstraction once over all its batches, and a consistency grid, whose cells'
    grids lie inside the event's, costs nothing more. Without it, each event's grid is scored by its own
    call, as a naive loop would. Both give identical scores, as long as the wrapped scorer does not change
    while wrapped (a model in training wraps itself afresh for each evaluation batch).
    """

    def __init__(
        self, scorer: TripleScorer, abstractor: "Abstractor", deduplicate: bool = True, memory: int = 1_000_000
    ) -> None:
        self.scorer = scorer
        self.abstractor = abstractor
        self.deduplicate = deduplicate
        self.memory = memory
        self._known: dict[Triple, float] = {}

    @property
    def probability_mapping(self) -> str:
        # A maximum commutes with the wrapped scorer's monotone map.
        return self.scorer.probability_mapping

    def explain(self, triples: Sequence[Triple]) -> list[AbstractedScore]:
        """Each event's score with its arg-max abstraction (the most general one on ties), input order."""
        grids = self.abstractor.grids(triples)
        if self.deduplicate:
            found = self._scores({triple: None for grid in grids for triple in grid.triples()})
            per_event = [np.array([found[triple] for triple in grid.triples()]) for grid in grids]
        else:
            per_event = [np.asarray(self.scorer.score(grid.triples())) for grid in grids]
        results = []
        for grid, scores in zip(grids, per_event, strict=True):
            best = int(np.argmax(scores))
            results.append(AbstractedScore(grid.event, float(scores[best]), grid.triples()[best]))
        return results

    def _scores(self, wanted: dict[Triple, None]) -> dict[Triple, float]:
        """The wrapped scorer's score of each wanted abstraction, scoring only those not already known."""
        new = [triple for triple in wanted if triple not in self._known]
        if new:
            self._known.update(zip(new, np.asarray(self.scorer.score(new), dtype=np.float64).tolist(), strict=True))
        found = {triple: self._known[triple] for triple in wanted}
        excess = len(self._known) - self.memory
        if excess > 0:  # forget the oldest (dicts keep insertion order)
            for triple in list(islice(self._known, excess)):
                del self._known[triple]
        return found

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """The maximum score over each event's abstractions, input order."""
        return np.array([result.score for result in self.explain(triples)], dtype=np.float64)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return self.scorer.to_probability(scores)


def load_concept_max(spec: str | None) -> ConceptMax:
    """`conceptmax:<SPEC>`: ConceptMax around SPEC's scorer, over its training lexicon (else the bundled one)."""
    from plausibility.scorers import load_scorer

    if not spec:
        raise PlausibilityError("conceptmax needs the scorer to wrap, e.g. conceptmax:runs/roberta/last.ckpt")
    inner = load_scorer(spec)
    if isinstance(inner, ConceptMax):
        return inner
    return ConceptMax(inner, lexicon_of(inner).abstractor)

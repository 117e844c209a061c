"""`TripleScorer` and the capabilities some scorers add: what keeps models, baselines and wrappers interchangeable."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction, AbstractionGrid
    from plausibility.lexicon.training_lexicon import TrainingLexicon


@runtime_checkable
class TripleScorer(Protocol):
    """Anything that scores events: a trained model, a baseline, a zero-shot LM, a wrapper around any of them.

    `score` returns one float per triple, in input order, higher meaning more plausible. The scale is the
    scorer's own (a logit, a natural-log score, a count ratio); `to_probability` maps those scores into
    [0, 1] monotonically, and `probability_mapping` names that map in words so reports can say which was
    used. `lexicon` is the lexicon the scorer was trained with (its nouns, min depth and WSD), which its
    abstraction grids are laid out in; None for a scorer trained on no nouns (the bundled lexicon is used).
    """

    probability_mapping: str
    lexicon: "TrainingLexicon | None"

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """Score each triple; shape (len(triples),), float64, input order."""
        ...

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        """Map scores from `score` into [0, 1], preserving their order."""
        ...


# The capabilities below are protocols of their own, with no data members of `TripleScorer`: on Python 3.11 an
# isinstance check reads every member a protocol has, and reading `probability_mapping` of a calibrated scorer
# would fit its calibration.


@runtime_checkable
class SenseScorer(Protocol):
    """A scorer that also reads the senses of grid cells (a net given hypernym chains as input).

    Grid cells are scored through `score_abstractions`, so a cell keeps the senses of its event's chains
    instead of being disambiguated again from its words.
    """

    def score_abstractions(self, abstractions: Sequence["Abstraction"]) -> np.ndarray:
        """Score each abstraction; shape (len(abstractions),), float64, input order."""
        ...


@runtime_checkable
class HeldOutScorer(Protocol):
    """A scorer counted from the training triples that can score each event as if left out of its counts.

    Calibrations are fitted on those scores, so that they hold for events never seen.
    """

    def held_out_score(self, triples: Sequence[Triple]) -> np.ndarray:
        """`score`, each event left out of the counts it is scored from."""
        ...


@runtime_checkable
class GridSearcher(Protocol):
    """A scorer whose answer for an event is the best cell of the event's abstraction grid (ConceptMax).

    Its score explains itself: the arg-max cell is why the event is plausible. Besides these, it is a
    `TripleScorer` like any other.
    """

    searched: TripleScorer

    def score(self, triples: Sequence[Triple]) -> np.ndarray: ...

    def to_probability(self, scores: np.ndarray) -> np.ndarray: ...

    def grid_scores(
        self, grids: Sequence["AbstractionGrid"], chunk_size: int = 1024, progress: bool = False
    ) -> list[np.ndarray]:
        """Its own score of every cell of each grid, shape `grid.shape`, input order."""
        ...

    def over(self, lexicon: "TrainingLexicon") -> "GridSearcher":
        """The same search over grids laid out in another lexicon (another min depth, say)."""
        ...

    def around(self, scorer: TripleScorer) -> "GridSearcher":
        """The same search of another scorer's grids (the searched scorer calibrated, say)."""
        ...


def held_out_scores(scorer: TripleScorer | HeldOutScorer, triples: Sequence[Triple]) -> np.ndarray:
    """The scorer's held-out scores where it has them (`HeldOutScorer`), else its plain scores."""
    return scorer.held_out_score(triples) if isinstance(scorer, HeldOutScorer) else scorer.score(triples)

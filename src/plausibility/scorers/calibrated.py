"""`CalibratedScorer`: any scorer whose probabilities come from a Platt calibration, its scores left as they are."""

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from plausibility.scorers.calibration import Calibration, NotMonotoneError
from plausibility.scorers.protocol import GridSearcher, HeldOutScorer, SenseScorer, TripleScorer, held_out_scores
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction
    from plausibility.lexicon.training_lexicon import TrainingLexicon


class CalibratedScorer:
    """A scorer with a Platt map as its `to_probability`; its scores, lexicon and rankings are the wrapped one's.

    The calibration may be given as a function that finds or fits it: it is then called once, the first
    time a probability is asked for, so ranking and AUC never pay for a fit. A scorer that ranks the
    negatives above the positives has no monotone calibration: it keeps its own probabilities, and
    `probability_mapping` says why. `calibration=None` keeps the scorer's own map from the start.
    """

    def __init__(self, scorer: TripleScorer, calibration: Calibration | Callable[[], Calibration] | None) -> None:
        self.scorer = scorer
        self._calibration: Calibration | Callable[[], Calibration] | NotMonotoneError | None = calibration

    @property
    def lexicon(self) -> "TrainingLexicon | None":
        return self.scorer.lexicon

    @property
    def calibration(self) -> Calibration | None:
        """The fitted map, or None where there is none (the wrapped scorer's own map is used)."""
        if callable(self._calibration):
            try:
                self._calibration = self._calibration()
            except NotMonotoneError as error:
                logging.getLogger(__name__).warning("%s; its own probabilities are kept", error)
                self._calibration = error
        return self._calibration if isinstance(self._calibration, Calibration) else None

    @property
    def probability_mapping(self) -> str:
        if self.calibration is not None:
            return self.calibration.describe()
        if isinstance(self._calibration, NotMonotoneError):
            return f"{self.scorer.probability_mapping} (not calibrated: {self._calibration})"
        return self.scorer.probability_mapping

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return self.scorer.score(triples)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        if self.calibration is None:
            return self.scorer.to_probability(scores)
        return self.calibration.probability(scores)


class CalibratedSenseScorer(CalibratedScorer):
    """A CalibratedScorer around a net that reads senses: grid cells still reach it with their chains."""

    scorer: SenseScorer

    def score_abstractions(self, abstractions: Sequence["Abstraction"]) -> np.ndarray:
        return self.scorer.score_abstractions(abstractions)


class CalibratedHeldOutScorer(CalibratedScorer):
    """A CalibratedScorer around a scorer that can leave events out of its counts (an ensemble's members ask)."""

    def held_out_score(self, triples: Sequence[Triple]) -> np.ndarray:
        return held_out_scores(self.scorer, triples)


def calibrate(scorer: TripleScorer, calibration: Calibration | Callable[[], Calibration] | None) -> TripleScorer:
    """`scorer` with calibrated probabilities, keeping its kind: ConceptMax stays ConceptMax around a calibrated one.

    A maximum commutes with a monotone map, so calibrating inside ConceptMax gives an event the same
    probability as calibrating its maximum, and explanations and grids still find ConceptMax.
    """
    if isinstance(scorer, GridSearcher):
        return scorer.around(calibrate(scorer.searched, calibration))
    if isinstance(scorer, CalibratedScorer):
        scorer = scorer.scorer
    if isinstance(scorer, SenseScorer):
        return CalibratedSenseScorer(scorer, calibration)
    if isinstance(scorer, HeldOutScorer):
        return CalibratedHeldOutScorer(scorer, calibration)
    return CalibratedScorer(scorer, calibration)


def uncalibrated(scorer: TripleScorer) -> TripleScorer:
    """`scorer` with its own map of scores to probabilities: a calibration around it (or in ConceptMax) removed."""
    if isinstance(scorer, GridSearcher):
        return scorer.around(uncalibrated(scorer.searched))
    return scorer.scorer if isinstance(scorer, CalibratedScorer) else scorer

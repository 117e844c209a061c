"""`NetScorer`: a trained net as a TripleScorer; `SenseNetScorer` for a net that reads the senses of grid cells."""

from collections.abc import Sequence
from itertools import islice
from typing import TYPE_CHECKING

import numpy as np
from scipy.special import expit
from torch import nn

from plausibility.lexicon.training_lexicon import TrainingLexicon
from plausibility.models.inference import DEFAULT_BATCH_SIZE, net_logits
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.protocol import TripleScorer
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction


class NetScorer:
    """Scores triples with a trained net that has `featurize(triples)` and `forward(**features) -> logits`.

    The net is fixed once loaded, so the logits of the last `memory` distinct triples are kept: the members
    of an ensemble that read the same net (`event:conceptmax`, and `conceptmax` whose grid holds each event's
    own cell) share its forward passes, as do the chunks of one large table.
    """

    probability_mapping = "sigmoid of the logit"

    def __init__(
        self,
        net: nn.Module,
        batch_size: int = DEFAULT_BATCH_SIZE,
        lexicon: TrainingLexicon | None = None,
        memory: int = 1_000_000,
    ) -> None:
        """Args:
        net: the trained net, on any device; it is put in eval mode while scoring.
        batch_size: triples per forward pass.
        lexicon: the lexicon the net was trained with, for wrappers such as ConceptMax to reuse.
        memory: distinct triples whose logits are kept (the oldest forgotten first).
        """
        self.net = net
        self.batch_size = batch_size
        self.lexicon = lexicon
        self.memory = memory
        self._known: dict[Triple, float] = {}

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """One logit per triple, input order; a triple this scorer met before is not run through the net again."""
        new = [triple for triple in dict.fromkeys(triples) if triple not in self._known]
        if new:
            logits = net_logits(self.net, new, self.net.featurize, self.batch_size)
            self._known.update(zip(new, np.asarray(logits, dtype=np.float64).tolist(), strict=True))
        scores = np.array([self._known[triple] for triple in triples], dtype=np.float64)
        for triple in list(islice(self._known, max(len(self._known) - self.memory, 0))):
            del self._known[triple]
        return scores

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return expit(np.asarray(scores, dtype=np.float64))


class SenseNetScorer(NetScorer):
    """A NetScorer for a net that reads senses (ConceptInject): grid cells keep their event's chains."""

    def score_abstractions(self, abstractions: Sequence["Abstraction"]) -> np.ndarray:
        """One logit per abstraction, its chains taken from its own senses, input order."""
        return net_logits(self.net, abstractions, self.net.featurize_abstractions, self.batch_size)


def trained_scorer(net: nn.Module, lexicon: TrainingLexicon, abstractions: int, batch_size: int) -> TripleScorer:
    """A trained net as a scorer: its logits, or ConceptMax's maximum where it was trained with abstractions.

    A net that reads senses gets grid cells with their event's chains (`SenseNetScorer`).
    """
    kind = SenseNetScorer if hasattr(net, "featurize_abstractions") else NetScorer
    scorer = kind(net, batch_size=batch_size, lexicon=lexicon)
    return ConceptMax(scorer, lexicon) if abstractions else scorer

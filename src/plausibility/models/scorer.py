"""`NetScorer`: a trained net as a TripleScorer, batched by length under `torch.inference_mode()`."""

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

import numpy as np
import torch
from torch import nn

from plausibility.lexicon.training_lexicon import TrainingLexicon
from plausibility.scoring.concept_max import ConceptMax
from plausibility.scoring.protocols import TripleScorer
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction

Item = TypeVar("Item")
DEFAULT_BATCH_SIZE = 256  # triples per forward pass when a model names none


class NetScorer:
    """Scores triples with a net that has `featurize(triples)` and `forward(**features) -> logits`."""

    probability_mapping = "sigmoid of the logit"

    def __init__(
        self, net: nn.Module, batch_size: int = DEFAULT_BATCH_SIZE, lexicon: TrainingLexicon | None = None
    ) -> None:
        """Args:
        net: the net, on any device; it is put in eval mode while scoring.
        batch_size: triples per forward pass.
        lexicon: the lexicon the net was trained with, for wrappers such as ConceptMax to reuse.
        """
        self.net = net
        self.batch_size = batch_size
        self.lexicon = lexicon

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """One logit per triple, input order."""
        return self._logits(triples, str, self.net.featurize)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.asarray(scores, dtype=np.float64)))

    def _logits(
        self, items: Sequence[Item], text: Callable[[Item], str], featurize: Callable[[list[Item]], dict]
    ) -> np.ndarray:
        # Sorted by length so each batch pads little; the results are scattered back to input order.
        order = sorted(range(len(items)), key=lambda i: len(text(items[i])))
        scores = np.empty(len(items), dtype=np.float64)
        device = next(self.net.parameters()).device
        was_training = self.net.training
        self.net.eval()
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                features = featurize([items[i] for i in chunk])
                logits = self.net(**{name: tensor.to(device) for name, tensor in features.items()})
                scores[chunk] = logits.float().cpu().numpy()
        self.net.train(was_training)
        return scores


class SenseNetScorer(NetScorer):
    """A NetScorer for a net that reads senses (ConceptInject): grid cells keep their event's chains."""

    def score_abstractions(self, abstractions: Sequence["Abstraction"]) -> np.ndarray:
        """One logit per abstraction, its chains taken from its own senses, input order."""
        return self._logits(abstractions, str, self.net.featurize_abstractions)


def net_scorer(
    net: nn.Module, batch_size: int = DEFAULT_BATCH_SIZE, lexicon: TrainingLexicon | None = None
) -> NetScorer:
    """The scorer of a net: one that passes grid cells' senses to nets that read them."""
    kind = SenseNetScorer if hasattr(net, "featurize_abstractions") else NetScorer
    return kind(net, batch_size=batch_size, lexicon=lexicon)


def net_lexicon(net: nn.Module, vocabulary: Sequence[str] | None, **settings: object) -> TrainingLexicon:
    """The lexicon of a net's training nouns (`settings`: min_depth, wsd), attached to a net that reads senses.

    Attach before loading trained weights: ConceptInject's synset embeddings are sized from the lexicon.
    """
    lexicon = TrainingLexicon(tuple(vocabulary) if vocabulary else None, **settings)
    if hasattr(net, "attach_lexicon"):
        net.attach_lexicon(lexicon)
    return lexicon


def trained_scorer(net: nn.Module, lexicon: TrainingLexicon, abstractions: int, batch_size: int) -> TripleScorer:
    """A trained net as a scorer: its logits, or ConceptMax's maximum where it was trained with abstractions."""
    scorer = net_scorer(net, batch_size=batch_size, lexicon=lexicon)
    return ConceptMax(scorer, lexicon) if abstractions else scorer

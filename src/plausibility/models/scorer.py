"""`NetScorer`: a trained net as a TripleScorer, batched by length under `torch.inference_mode()`."""

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

from plausibility.models.training_lexicon import TrainingLexicon
from plausibility.triple import Triple


class NetScorer:
    """Scores triples with a net that has `featurize(triples)` and `forward(**features) -> logits`."""

    probability_mapping = "sigmoid of the logit"

    def __init__(self, net: nn.Module, batch_size: int = 256, lexicon: TrainingLexicon | None = None) -> None:
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
        # Sorted by length so each batch pads little; the results are scattered back to input order.
        order = sorted(range(len(triples)), key=lambda i: len(str(triples[i])))
        scores = np.empty(len(triples), dtype=np.float64)
        device = next(self.net.parameters()).device
        was_training = self.net.training
        self.net.eval()
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                features = self.net.featurize([triples[i] for i in chunk])
                logits = self.net(**{name: tensor.to(device) for name, tensor in features.items()})
                scores[chunk] = logits.float().cpu().numpy()
        self.net.train(was_training)
        return scores

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.asarray(scores, dtype=np.float64)))

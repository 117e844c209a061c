"""An ensemble: the mean calibrated log-odds of several scorers, so a language model and a trained net can vote.

Scorers' own scales differ (a logit, a PMI in nats, a log count ratio); their Platt-calibrated probabilities
share one meaning ("as likely attested as not" at 0.5), so the ensemble averages the log-odds of those.
The mean may be weighted: a member that ranks events better, or that agrees less with the others, can count
for more. Weights are searched on the valid halves (`experiments/ensemble_weights`), never on the test ones.
"""

from collections.abc import Sequence

import numpy as np
from scipy.special import expit, logit

from plausibility.errors import PlausibilityError
from plausibility.scorers.protocol import TripleScorer, held_out_scores
from plausibility.triple import Triple

# Probabilities are kept this far from 0 and 1 so that a saturated member gives finite log-odds.
_EPSILON = 1e-12


def log_odds(scorer: TripleScorer, triples: Sequence[Triple], held_out: bool = False) -> np.ndarray:
    """`logit` of the scorer's probability of each triple, kept finite (`held_out`: see `held_out_scores`)."""
    scores = held_out_scores(scorer, triples) if held_out else scorer.score(triples)
    return logit(np.clip(scorer.to_probability(scores), _EPSILON, 1 - _EPSILON)).astype(np.float64)


class EnsembleScorer:
    """Scores an event by the weighted mean over its members of `logit(member probability)`; its probability is
    the sigmoid.

    Members should be calibrated (`load_scorer` calibrates every scorer it builds), else a member whose
    probabilities are all tiny drags the mean. The grids of `conceptmax:` and `--explain` are laid out by the
    first member that has a lexicon of its own.
    """

    def __init__(
        self, members: Sequence[TripleScorer], names: Sequence[str], weights: Sequence[float] | None = None
    ) -> None:
        """`weights` (default: all 1) are each member's share of the mean, up to a common factor."""
        weights = list(weights) if weights else [1.0] * len(members)
        if len(members) < 2 or len(members) != len(names):
            raise PlausibilityError("an ensemble needs at least two scorers, e.g. ensemble:roberta+zero-shot")
        if len(weights) != len(members) or not all(0 < weight < np.inf for weight in weights):
            raise PlausibilityError(
                f"an ensemble of {len(members)} scorers needs as many positive weights, got {weights}"
            )
        self.members = tuple(members)
        self.names = tuple(names)
        self.weights = np.asarray(weights, dtype=np.float64) / sum(weights)
        self.lexicon = next((member.lexicon for member in members if member.lexicon is not None), None)

    @property
    def probability_mapping(self) -> str:
        if np.allclose(self.weights, self.weights[0]):
            return "sigmoid of the mean calibrated log-odds of " + ", ".join(self.names)
        shares = ", ".join(f"{name} ({weight:.3g})" for name, weight in zip(self.names, self.weights, strict=True))
        return "sigmoid of the weighted mean calibrated log-odds of " + shares

    def member_log_odds(self, triples: Sequence[Triple], held_out: bool = False) -> np.ndarray:
        """Each member's log-odds of each triple, shape (members, triples).

        With `held_out`, a member that can leave an event out of its counts does (`held_out_scores`).
        """
        rows = [log_odds(member, triples, held_out) for member in self.members]
        return np.asarray(rows, dtype=np.float64).reshape(len(self.members), len(triples))

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return self.weights @ self.member_log_odds(triples)

    def held_out_score(self, triples: Sequence[Triple]) -> np.ndarray:
        """`score` with each member's held-out scores, where it has them: what the ensemble is calibrated on."""
        return self.weights @ self.member_log_odds(triples, held_out=True)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return expit(np.asarray(scores, dtype=np.float64))

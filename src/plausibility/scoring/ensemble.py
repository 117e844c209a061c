"""An ensemble: the mean calibrated log-odds of several scorers, so a language model and a trained net can vote.

Scorers' own scales differ (a logit, a PMI in nats, a log count ratio); their Platt-calibrated probabilities
share one meaning ("as likely attested as not" at 0.5), so the ensemble averages the log-odds of those.
"""

from collections.abc import Sequence

import numpy as np
from scipy.special import expit, logit

from plausibility.errors import PlausibilityError
from plausibility.scoring.protocols import TripleScorer
from plausibility.triple import Triple

# Probabilities are kept this far from 0 and 1 so that a saturated member gives finite log-odds.
_EPSILON = 1e-12


class EnsembleScorer:
    """Scores an event by the mean over its members of `logit(member probability)`; its probability is the sigmoid.

    Members should be calibrated (`load_scorer` calibrates every scorer it builds), else a member whose
    probabilities are all tiny drags the mean. The grids of `conceptmax:` and `--explain` are laid out by the
    first member that has a lexicon of its own.
    """

    def __init__(self, members: Sequence[TripleScorer], names: Sequence[str]) -> None:
        if len(members) < 2 or len(members) != len(names):
            raise PlausibilityError("an ensemble needs at least two scorers, e.g. ensemble:roberta+zero-shot")
        self.members = tuple(members)
        self.names = tuple(names)
        self.lexicon = next((m.lexicon for m in members if getattr(m, "lexicon", None) is not None), None)

    @property
    def probability_mapping(self) -> str:
        return "sigmoid of the mean calibrated log-odds of " + ", ".join(self.names)

    def member_log_odds(self, triples: Sequence[Triple]) -> np.ndarray:
        """Each member's log-odds of each triple, shape (members, triples)."""
        rows = []
        for member in self.members:
            probabilities = member.to_probability(member.score(triples))
            rows.append(logit(np.clip(probabilities, _EPSILON, 1 - _EPSILON)))
        return np.asarray(rows, dtype=np.float64).reshape(len(self.members), len(triples))

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return self.member_log_odds(triples).mean(axis=0)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return expit(np.asarray(scores, dtype=np.float64))

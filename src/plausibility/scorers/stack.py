"""`StackScorer`: one logistic regression over its members' log-odds, their role-reversal contrasts and a
selectional restriction, fitted on human judgements (the shipped default).

An ensemble's weighted mean of log-odds, calibrated, is already a logistic regression over its members; a
stack adds features that no member gives alone:

- `reversal:<SPEC>`: the member's log-odds of the event minus those of its role reversal (`rock eat sandwich`
  against `sandwich eat rock`), which says who can do what to whom where a member's own score only says how
  likely the words are together;
- `restriction`: how much the verb wants an animate subject when the event's subject is not one
  (`plausibility.scorers.restriction`).

Its features' contributions (coefficient times value) say why an event is judged implausible, in words.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from plausibility.errors import DataFormatError
from plausibility.lexicon.animacy import Animacy
from plausibility.scorers.calibrated import uncalibrated
from plausibility.scorers.ensemble import log_odds
from plausibility.scorers.protocol import TripleScorer
from plausibility.scorers.restriction import SubjectRestriction
from plausibility.triple import Triple

REVERSAL = "reversal:"
RESTRICTION = "restriction"
# A feature pulling an event's log-odds down by more than this is a reason worth telling (about .1 in probability
# around .5).
REASON_LOG_ODDS = 0.4


def reversal(triple: Triple) -> Triple:
    """The event with subject and object swapped: `person eat apple` -> `apple eat person`."""
    return Triple(triple.object, triple.verb, triple.subject)


def feature_member(feature: str) -> str | None:
    """The member SPEC a feature reads (`reversal:ngram` -> `ngram`); None for the restriction."""
    if feature == RESTRICTION:
        return None
    return feature.removeprefix(REVERSAL)


@dataclass(frozen=True)
class Reason:
    """Why an event is judged less plausible: `restriction` or `reversal` (every reversal feature together), what
    it took off the log-odds, and the words for it."""

    feature: str
    log_odds: float
    text: str

    def record(self) -> dict[str, object]:
        return {"feature": self.feature, "log_odds": self.log_odds, "reason": self.text}


class StackScorer:
    """Scores an event by `intercept + coefficients @ features`; its probability is the sigmoid.

    Args:
        members: each member SPEC a feature names, with its scorer (calibrated, as an ensemble's members are).
        features: the feature names, in the order of `coefficients`.
        coefficients: the regression's weight of each feature.
        intercept: its constant.
        restriction: the subject restriction the `restriction` feature reads (needed only if one is named).
        animacy: the nouns' animacy that the restriction is checked against.
        precision: what its language model runs in (`float32`, `bfloat16`), as records report it.
    """

    def __init__(
        self,
        members: Mapping[str, TripleScorer],
        features: Sequence[str],
        coefficients: Sequence[float],
        intercept: float,
        restriction: SubjectRestriction | None = None,
        animacy: Animacy | None = None,
        precision: str = "float32",
    ) -> None:
        if len(features) != len(coefficients) or not features:
            raise DataFormatError(f"a stack needs one coefficient per feature, got {len(coefficients)} for {features}")
        unknown = [f for f in features if f != RESTRICTION and feature_member(f) not in members]
        if unknown or (RESTRICTION in features and (restriction is None or animacy is None)):
            raise DataFormatError(f"stack features {unknown or [RESTRICTION]} name nothing the stack was given")
        self.members = dict(members)
        self.features = tuple(features)
        self.coefficients = np.asarray(coefficients, dtype=np.float64)
        self.intercept = float(intercept)
        self.restriction = restriction
        self.animacy = animacy
        self.precision = precision
        self.lexicon = next((m.lexicon for m in self.members.values() if m.lexicon is not None), None)

    @property
    def probability_mapping(self) -> str:
        return "sigmoid of a logistic regression over " + ", ".join(self.features)

    def feature_values(self, triples: Sequence[Triple]) -> np.ndarray:
        """Each feature of each triple, shape (len(triples), features); each member scores each event once,
        and the events and their reversals in one call."""
        triples = list(triples)
        reversed_too = {feature_member(f) for f in self.features if f.startswith(REVERSAL)}
        scored: dict[str, np.ndarray] = {}
        for name, member in self.members.items():
            both = triples + [reversal(t) for t in triples] if name in reversed_too else triples
            scored[name] = log_odds(member, both)
        columns = []
        for feature in self.features:
            if feature == RESTRICTION:
                columns.append(self.restriction.feature(triples, self.animacy))  # type: ignore[union-attr]
                continue
            values = scored[feature_member(feature)]  # type: ignore[index]
            own = values[: len(triples)]
            columns.append(own - values[len(triples) :] if feature.startswith(REVERSAL) else own)
        return np.column_stack(columns) if triples else np.empty((0, len(self.features)))

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return self.intercept + self.feature_values(triples) @ self.coefficients

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return expit(np.asarray(scores, dtype=np.float64))

    def reasons(self, triples: Sequence[Triple]) -> list[list[Reason]]:
        """For each triple, what pulls its log-odds down by more than `REASON_LOG_ODDS`, most first, in words:
        the restriction, and the reversal features together (each member's verdict on the reversed event)."""
        contributions = self.feature_values(triples) * self.coefficients
        reversed_ = np.array([feature.startswith(REVERSAL) for feature in self.features])
        restricted = np.array([feature == RESTRICTION for feature in self.features])
        found = []
        for triple, row in zip(triples, contributions, strict=True):
            reasons = []
            if restricted.any() and row[restricted].sum() < -REASON_LOG_ODDS:
                reasons.append(Reason(RESTRICTION, float(row[restricted].sum()), self.restriction.reason(triple)))  # type: ignore[union-attr]
            if reversed_.any() and row[reversed_].sum() < -REASON_LOG_ODDS:
                text = f"its members find the reversed event '{reversal(triple)}' more plausible"
                reasons.append(Reason("reversal", float(row[reversed_].sum()), text))
            found.append(sorted(reasons, key=lambda reason: reason.log_odds))
        return found


def stack_of(scorer: TripleScorer) -> StackScorer | None:
    """The stack a scorer is (calibrated or not); None for any other scorer."""
    inner = uncalibrated(scorer)
    return inner if isinstance(inner, StackScorer) else None

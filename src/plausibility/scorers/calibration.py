"""Platt calibration: `P = sigmoid(a * score + b)` fitted by logistic regression, on training pairs or judgements.

Each scorer's own `to_probability` is a fixed monotone map of its scale (a sigmoid of a logit, the exp of a
log score), so its 0.5 means nothing in particular. Platt scaling fits `sigmoid(a * score + b)` to binary
labels: fitted on human judgements (the valid halves of Pep-3k and 20Q: plausible 1, implausible 0), 0.5
means "as likely judged plausible as not"; fitted on training pairs (attested 1, pseudo-negative 0), it means
"as likely attested as a random swap". The map is monotone (a > 0 for any scorer better than chance), so
scores, rankings and AUC are unchanged.
"""

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from scipy.special import expit

from plausibility.corpus.artefacts import PAIR_COLUMNS, read_pairs
from plausibility.errors import DataFormatError, PlausibilityError
from plausibility.scorers.protocol import HeldOutScorer, TripleScorer, held_out_scores
from plausibility.triple import Triple


class NotMonotoneError(PlausibilityError):
    """A scorer ranks the negative events above the positive ones: no increasing map can calibrate it."""


# What the labels of a fit were: attested vs pseudo-negative training pairs, or human judgements.
CalibrationTarget = Literal["pairs", "judgements"]


@dataclass(frozen=True)
class Calibration:
    """`P = sigmoid(slope * score + intercept)`, with what it was fitted on.

    Attributes:
        n: events fitted on (both labels together).
        fitted_on: which events, in words (file, rows, seed; or the judged sets).
        target: `judgements` (P means "judged plausible") or `pairs` (P means "attested, not a swap").
    """

    slope: float
    intercept: float
    n: int
    fitted_on: str
    target: CalibrationTarget = "pairs"

    def probability(self, scores: np.ndarray) -> np.ndarray:
        return expit(self.slope * np.asarray(scores, dtype=np.float64) + self.intercept)

    @property
    def crossing(self) -> float:
        """The score whose calibrated probability is 0.5."""
        return -self.intercept / self.slope

    @property
    def formula(self) -> str:
        sign = "-" if self.intercept < 0 else "+"
        return f"sigmoid({self.slope:.4g} * score {sign} {abs(self.intercept):.4g})"

    def describe(self) -> str:
        """What the probability means, in one short line."""
        if self.target == "judgements":
            return f"Platt-calibrated on human judgements ({self.n:,} judged events)"
        return f"Platt-calibrated on training pairs ({self.n // 2:,} attested events against their pseudo-negatives)"

    def save(self, path: Path) -> None:
        from plausibility.atomic import atomic_write_text

        atomic_write_text(path, json.dumps(asdict(self), indent=2) + "\n")

    @classmethod
    def load(cls, path: Path) -> "Calibration":
        """A saved calibration; one written by an earlier version (its `slice` and ECE figures) reads too."""
        try:
            fields = json.loads(path.read_text(encoding="utf-8"))
            if "slice" in fields:
                fields["fitted_on"] = fields.pop("slice")
            calibration = cls(**{name: fields[name] for name in cls.__dataclass_fields__ if name in fields})
        except (OSError, ValueError, TypeError, KeyError) as error:
            raise DataFormatError(f"{path}: not a calibration file ({error}); export the model again") from error
        if not (np.isfinite(calibration.slope) and np.isfinite(calibration.intercept) and calibration.slope > 0):
            raise DataFormatError(f"{path}: slope must be positive and both parameters finite; export the model again")
        if calibration.target not in ("pairs", "judgements"):
            raise DataFormatError(f"{path}: target must be pairs or judgements; export the model again")
        return calibration


def fit_logistic(
    values: np.ndarray, labels: np.ndarray, weights: Sequence[float] | np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """The coefficients and intercept of an unpenalised logistic regression of the labels on the columns of
    `values`, each row weighing its `weights` (default: 1). Fitted on standardised columns for the solver (log
    scores sit far from zero), then mapped back to the columns' own scales."""
    from sklearn.linear_model import LogisticRegression

    centre, spread = values.mean(axis=0), values.std(axis=0)
    spread[spread == 0] = 1.0
    model = LogisticRegression(C=np.inf, tol=1e-10, max_iter=10_000).fit(
        (values - centre) / spread, labels, sample_weight=None if weights is None else np.asarray(weights, float)
    )
    coefficients = model.coef_[0] / spread
    return coefficients, float(model.intercept_[0] - coefficients @ centre)


def fit_platt(
    scores: Sequence[float] | np.ndarray,
    labels: Sequence[int] | np.ndarray,
    fitted_on: str,
    target: CalibrationTarget = "pairs",
    weights: Sequence[float] | np.ndarray | None = None,
) -> Calibration:
    """Logistic regression of the labels on the 1-D scores (unpenalised maximum likelihood), each score weighing
    its `weights` (default: 1)."""
    x = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=np.int64)
    if len(x) != len(y) or len(set(y.tolist())) != 2 or not np.all(np.isfinite(x)):
        raise DataFormatError(f"{fitted_on}: calibration needs finite scores of both labels, aligned ({len(x)} scores)")
    (slope,), intercept = fit_logistic(x[:, None], y, weights)
    slope = float(slope)
    if not slope > 0:
        raise NotMonotoneError(
            f"{fitted_on}: fitted slope {slope:.3g} is not positive (the scorer does not rank the positive events "
            "above the negative ones); a monotone calibration needs a better model"
        )
    return Calibration(slope, intercept, len(x), fitted_on, target)


def calibration_slice(pairs: Path, size: int, seed: int = 0) -> tuple[list[Triple], list[int], str]:
    """A seeded sample of `size` training pairs: attested events (label 1), then their pseudo-negatives (label 0)."""
    if size < 1:
        raise PlausibilityError(f"calibration needs at least one pair (got {size})")
    table = read_pairs(pairs)
    rows = np.random.default_rng(seed).choice(table.num_rows, size=min(size, table.num_rows), replace=False)
    rows.sort()
    c = {name: table.column(name).take(rows).to_pylist() for name in PAIR_COLUMNS}
    attested = [Triple(*words) for words in zip(c["subject"], c["verb"], c["object"], strict=True)]
    negatives = [Triple(*w) for w in zip(c["negative_subject"], c["negative_verb"], c["negative_object"], strict=True)]
    description = f"{len(rows)} of the {table.num_rows} pairs of {pairs.name}, drawn by numpy default_rng({seed})"
    return attested + negatives, [1] * len(attested) + [0] * len(negatives), description


def fit_calibration(scorer: TripleScorer, pairs: Path, size: int, seed: int = 0) -> Calibration:
    """Platt scaling of `scorer` on a seeded slice of training pairs (never the evaluation sets).

    A scorer that can leave each event out of its counts is fitted on those held-out scores, and the
    slice's description says so.
    """
    triples, labels, description = calibration_slice(pairs, size, seed)
    if isinstance(scorer, HeldOutScorer):
        description += ", each event left out of any counts it is scored from"
    return fit_platt(held_out_scores(scorer, triples), labels, description)

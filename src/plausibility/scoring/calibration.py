"""Calibrated probabilities: Platt scaling of any scorer, fitted on held-out training pairs, so 0.5 is a coin toss.

Each scorer's own `to_probability` is a fixed monotone map of its scale (a sigmoid of a logit, the exp of a
log score), so its 0.5 means nothing in particular. Platt scaling fits `sigmoid(a * score + b)` by logistic
regression on attested events (label 1) against their pseudo-negatives (label 0): a probability of 0.5
then means "as likely attested as not" on the training distribution. The map is monotone (a > 0 for any
scorer better than chance), so scores, rankings and AUC are unchanged.
"""

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from scipy.special import expit

from plausibility.corpus.artefacts import PAIR_COLUMNS, read_pairs
from plausibility.errors import DataFormatError, PlausibilityError
from plausibility.scoring.concept_max import ConceptMax
from plausibility.scoring.protocols import AbstractionScorer, TripleScorer, can_hold_out, held_out_scores
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction

CALIBRATION_BINS = 10


@dataclass(frozen=True)
class Calibration:
    """`P(attested) = sigmoid(slope * score + intercept)`, with what it was fitted on and how well it fits.

    Attributes:
        n: events fitted on (attested and pseudo-negative together).
        slice: which pairs, in words (file, rows, seed).
        ece_before: expected calibration error of the scorer's own `to_probability` on those events.
        ece_after: the same of the fitted map (in-sample: measured on the events it was fitted on).
    """

    slope: float
    intercept: float
    n: int
    slice: str
    ece_before: float
    ece_after: float

    def probability(self, scores: np.ndarray) -> np.ndarray:
        logits = self.slope * np.asarray(scores, dtype=np.float64) + self.intercept
        return expit(logits)

    @property
    def crossing(self) -> float:
        """The score whose calibrated probability is 0.5."""
        return -self.intercept / self.slope

    def describe(self) -> str:
        sign = "-" if self.intercept < 0 else "+"
        return f"Platt-calibrated sigmoid({self.slope:.4g} * score {sign} {abs(self.intercept):.4g})"

    def save(self, path: Path) -> None:
        from plausibility.atomic import atomic_write_text

        atomic_write_text(path, json.dumps(asdict(self), indent=2) + "\n")

    @classmethod
    def load(cls, path: Path) -> "Calibration":
        try:
            fields = json.loads(path.read_text(encoding="utf-8"))
            calibration = cls(**fields)
        except (OSError, ValueError, TypeError) as error:
            raise DataFormatError(f"{path}: not a calibration file ({error}); export the model again") from error
        if not (np.isfinite(calibration.slope) and np.isfinite(calibration.intercept) and calibration.slope > 0):
            raise DataFormatError(f"{path}: slope must be positive and both parameters finite; export the model again")
        return calibration


def expected_calibration_error(
    labels: Sequence[int] | np.ndarray, probabilities: Sequence[float] | np.ndarray, bins: int = CALIBRATION_BINS
) -> float:
    """ECE over equal-width probability bins: sum over bins of (share of events) x |attested rate - mean probability|.

    Bins are those of sklearn's `calibration_curve` (uniform strategy).
    """
    y = np.asarray(labels, dtype=np.float64)
    p = np.asarray(probabilities, dtype=np.float64)
    if len(y) != len(p) or len(y) == 0:
        raise DataFormatError(f"ECE needs as many labels as probabilities, at least one (got {len(y)}, {len(p)})")
    which = np.searchsorted(np.linspace(0.0, 1.0, bins + 1)[1:-1], p)  # each event's bin, as calibration_curve
    counts = np.bincount(which, minlength=bins)
    gaps = np.abs(np.bincount(which, weights=y, minlength=bins) - np.bincount(which, weights=p, minlength=bins))
    return float(gaps.sum() / counts.sum())


def fit_platt(
    scores: Sequence[float] | np.ndarray,
    labels: Sequence[int] | np.ndarray,
    slice: str,
    own_probability: Callable[[np.ndarray], np.ndarray] | None = None,
) -> Calibration:
    """Logistic regression of the labels on the 1-D scores (unpenalised maximum likelihood).

    Args:
        own_probability: the scorer's own `to_probability`, for the ECE it had before; None to skip it (NaN).
    """
    from sklearn.linear_model import LogisticRegression

    x = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=np.int64)
    if len(x) != len(y) or len(set(y.tolist())) != 2 or not np.all(np.isfinite(x)):
        raise DataFormatError(f"{slice}: calibration needs finite scores of both labels, aligned ({len(x)} scores)")
    # Standardised for the solver (log scores sit far from zero), then mapped back to the raw scale.
    centre, spread = float(x.mean()), float(x.std()) or 1.0
    model = LogisticRegression(C=np.inf, tol=1e-10, max_iter=1000).fit(((x - centre) / spread)[:, None], y)
    slope = float(model.coef_[0, 0]) / spread
    intercept = float(model.intercept_[0]) - slope * centre
    if not slope > 0:
        raise PlausibilityError(
            f"{slice}: fitted slope {slope:.3g} is not positive (the scorer does not rank attested events above "
            "pseudo-negatives); a monotone calibration needs a better model"
        )
    before = float("nan") if own_probability is None else expected_calibration_error(y, own_probability(x))
    after = expected_calibration_error(y, 1.0 / (1.0 + np.exp(-(slope * x + intercept))))
    return Calibration(slope, intercept, len(x), slice, before, after)


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
    if can_hold_out(scorer):
        description += ", each event left out of any counts it is scored from"
    return fit_platt(held_out_scores(scorer, triples), labels, description, scorer.to_probability)


class CalibratedScorer:
    """Any TripleScorer with a fitted Platt map as its `to_probability`; all else is the wrapped scorer's.

    Scores and every other attribute (its LM, net, batch size, lexicon) are read through to the wrapped
    scorer, so a calibrated scorer can stand wherever the scorer itself did. The calibration may be given
    as a function that finds or fits it: it is then called once, the first time a probability is asked for,
    so ranking and AUC never pay for a fit. A scorer that ranks pseudo-negatives above attested events has no
    monotone calibration: it keeps its own probabilities, and `probability_mapping` says why.
    """

    def __init__(self, scorer: TripleScorer, calibration: Calibration | Callable[[], Calibration]) -> None:
        self.scorer = scorer
        self._calibration: Calibration | Callable[[], Calibration] | PlausibilityError = calibration

    @property
    def calibration(self) -> Calibration | None:
        """The fitted map, or None where no monotone one exists (the wrapped scorer's own map is used)."""
        if callable(self._calibration):
            try:
                self._calibration = self._calibration()
            except PlausibilityError as error:
                logging.getLogger(__name__).warning("%s; its own probabilities are kept", error)
                self._calibration = error
        return self._calibration if isinstance(self._calibration, Calibration) else None

    @property
    def probability_mapping(self) -> str:
        if self.calibration is None:
            return f"{self.scorer.probability_mapping} (not calibrated: {self._calibration})"
        return f"{self.calibration.describe()}, fitted on {self.calibration.slice}"

    def __getattr__(self, name: str) -> object:
        if name in ("scorer", "_calibration"):  # not set yet (while unpickling or copying): no recursion
            raise AttributeError(name)
        return getattr(self.scorer, name)

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return self.scorer.score(triples)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        if self.calibration is None:
            return self.scorer.to_probability(scores)
        return self.calibration.probability(scores)


class CalibratedAbstractionScorer(CalibratedScorer):
    """A CalibratedScorer around a net that reads senses: grid cells still reach it with their chains."""

    def score_abstractions(self, abstractions: Sequence["Abstraction"]) -> np.ndarray:
        return self.scorer.score_abstractions(abstractions)


def calibrate(scorer: TripleScorer, calibration: Calibration | Callable[[], Calibration]) -> TripleScorer:
    """`scorer` with calibrated probabilities, keeping its kind: ConceptMax stays ConceptMax around a calibrated one.

    A maximum commutes with a monotone map, so calibrating inside ConceptMax gives an event the same
    probability as calibrating its maximum, and explanations and grids still find ConceptMax.
    """
    if isinstance(scorer, ConceptMax):
        return scorer.rebuilt(scorer=calibrate(scorer.scorer, calibration))
    kind = CalibratedAbstractionScorer if isinstance(scorer, AbstractionScorer) else CalibratedScorer
    return kind(scorer, calibration)


def is_calibrated(scorer: TripleScorer) -> bool:
    """Whether `scorer`'s probabilities are already a calibration's (an exported folder's, or ConceptMax around one)."""
    return isinstance(scorer.scorer if isinstance(scorer, ConceptMax) else scorer, CalibratedScorer)


def uncalibrated(scorer: TripleScorer) -> TripleScorer:
    """`scorer` with its own map of scores to probabilities: a calibration around it (or in ConceptMax) removed."""
    if isinstance(scorer, ConceptMax):
        return scorer.rebuilt(scorer=uncalibrated(scorer.scorer))
    return scorer.scorer if isinstance(scorer, CalibratedScorer) else scorer


# What a scorer without a calibration of its own is fitted on: a seeded slice of the bundled training pairs.
DEFAULT_CALIBRATION_PAIRS = 1000


def bundled_calibration_path(spec: str) -> Path:
    """Where the fit of a named offline scorer ships (`data/calibration/`), so its first use fits nothing."""
    from plausibility.resources import data_dir

    # `:` and `*` (an ensemble member's weight) are not allowed in every file system's names
    return data_dir() / "calibration" / f"{spec.replace(':', '_').replace('*', 'x')}.json"


def calibration_for(spec: str, scorer: TripleScorer) -> Calibration:
    """The Platt calibration of SPEC's scorer: shipped with the package, cached from an earlier fit, or fitted now.

    A fit is cached under the cache folder, keyed by the SPEC (and, for a SPEC that is a file or folder,
    its size and modification time, so a retrained checkpoint is calibrated afresh), by the weights of the
    shipped models (a named SPEC such as `ensemble:conceptmax+ngram` may hold one, and an upgrade may replace
    it) and by the pairs file it was fitted on, with its size and modification time (a rebuilt training set
    is fitted afresh). A model
    trained on the bundled pairs has seen part of the slice; an exported folder's own calibration says how much.
    """
    import hashlib

    from plausibility.resources import cache_dir, data_dir

    bundled = bundled_calibration_path(spec)
    if bundled.is_file():
        return Calibration.load(bundled)
    pairs = data_dir() / "training" / "pairs.parquet"
    shipped = sorted((data_dir() / "models").glob("*/model.safetensors"))
    stamps = [[p.stat().st_size, p.stat().st_mtime_ns] for p in (Path(spec), pairs, *shipped) if p.exists()]
    held_out = ["held out"] if can_hold_out(scorer) else []  # keyed apart from in-sample fits cached before
    key = json.dumps([spec, *stamps, str(pairs), DEFAULT_CALIBRATION_PAIRS, *held_out])
    cached = cache_dir() / "calibration" / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"
    if cached.is_file():
        return Calibration.load(cached)
    calibration = fit_calibration(scorer, pairs, DEFAULT_CALIBRATION_PAIRS)
    calibration.save(cached)
    return calibration


def calibrated(spec: str, scorer: TripleScorer) -> TripleScorer:
    """SPEC's scorer with calibrated probabilities: its own calibration if it has one, else `calibration_for`'s.

    The fit is found (or made) the first time a probability is asked for.
    """
    if is_calibrated(scorer):
        return scorer
    return calibrate(scorer, lambda: calibration_for(spec, scorer))

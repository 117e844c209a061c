"""`ExportResult`: what an export wrote, and what it measured on what it wrote."""

from dataclasses import dataclass, field
from pathlib import Path

from plausibility.evaluation.judged_calibration import CalibrationFigures
from plausibility.evaluation.results import ModelResult
from plausibility.release.cold_start import ColdStart
from plausibility.scorers.calibration import Calibration


@dataclass(frozen=True)
class ExportResult:
    """The written folder and what was measured on what it holds.

    Attributes:
        config: what the folder's `config.yaml` holds (name, version, what the model is, how it trained).
        sizes: bytes of each file written.
        result: AUC with intervals and CCΔ / LER (None when not evaluated).
        own: how the scorer's own probabilities (before calibration) fit each evaluated half.
        calibrated: how the calibrated probabilities fit each evaluated half.
        cold_start: how long a fresh process takes to load it and score one event (measured when evaluated).
        precisions: a stack's calibration for each precision its language model may run in.
    """

    folder: Path
    config: dict
    sizes: dict[str, int]
    result: ModelResult | None = None
    calibration: Calibration | None = None
    own: dict[str, CalibrationFigures] = field(default_factory=dict)
    calibrated: dict[str, CalibrationFigures] = field(default_factory=dict)
    cold_start: ColdStart | None = None
    precisions: dict[str, Calibration] = field(default_factory=dict)

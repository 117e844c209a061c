"""A report's results: each model's AUC with intervals and CCΔ / LER, measured under one set of settings."""

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from plausibility.errors import PlausibilityError
from plausibility.evaluation.auc import evaluate_auc
from plausibility.evaluation.datasets import DATASETS, SPLITS, load_plausibility_set
from plausibility.evaluation.grids import measure_consistency
from plausibility.evaluation.intervals import AucInterval, auc_interval
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.thesis import ThesisFigures, thesis_figures
from plausibility.lexicon.training_lexicon import lexicon_of
from plausibility.scoring.protocols import TripleScorer

if TYPE_CHECKING:
    from plausibility.evaluation.saved_results import SavedResults


@dataclass(frozen=True)
class ReportSettings:
    """How the report was computed; saved beside the results.

    Attributes:
        consistency_events: events drawn (seeded, without replacement) from each dataset's consistency
            split; None for all of them, as in the thesis.
        wsd, min_depth: overrides of each scorer's own lexicon (`lexicon_of`); None keeps its own.
        dtype: the precision the scorers were loaded in; it changes scores, so saved rows are kept per dtype.
    """

    seed: int = 0
    n_resamples: int = 1000
    confidence: float = 0.95
    consistency_split: str = "test"
    consistency_events: int | None = 200
    wsd: str | None = None
    min_depth: int | None = None
    batch_size: int = 1024
    dtype: str = "float32"


@dataclass(frozen=True)
class ConsistencyFigures:
    """CCΔ (on probabilities and scale-free) and LER of one dataset, with what they pool (lower is better).

    `lexicon` says which hierarchy and WSD the grids were laid out in (`TrainingLexicon.describe`).
    """

    ccd: float
    ccd_scale_free: float
    ler: float
    events: int
    windows: int
    lexicon: dict[str, object]


@dataclass(frozen=True)
class ModelResult:
    """One model's row of both tables: AUC per dataset and split, CCΔ / LER per dataset."""

    label: str
    spec: str
    probability_mapping: str
    auc: dict[str, dict[str, AucInterval]]
    consistency: dict[str, ConsistencyFigures]

    @property
    def thesis(self) -> ThesisFigures | None:
        return thesis_figures(self.label)


@dataclass(frozen=True)
class Report:
    """Every evaluated model, and the requested ones that could not be loaded (label -> reason)."""

    models: list[ModelResult]
    settings: ReportSettings
    skipped: dict[str, str] = field(default_factory=dict)


def consistency_sample(n_events: int, settings: ReportSettings, dataset: str) -> list[int]:
    """Indices of the events whose grids are measured: all, or a seeded sample in set order."""
    if settings.consistency_events is None or settings.consistency_events >= n_events:
        return list(range(n_events))
    # one generator per dataset, so adding a model or a dataset never changes another's sample
    rng = np.random.default_rng([settings.seed, DATASETS.index(dataset)])
    return sorted(rng.choice(n_events, size=settings.consistency_events, replace=False).tolist())


def evaluate_scorer(
    request: ModelRequest, scorer: TripleScorer, settings: ReportSettings, consistency: bool = True
) -> ModelResult:
    """AUC with bootstrap intervals on every half of Pep-3k and 20Q; CCΔ / LER too with `consistency`.

    Grids are laid out in the scorer's own lexicon (`lexicon_of`, with the settings' overrides), the same
    rule `plausibility consistency` follows.
    """
    auc: dict[str, dict[str, AucInterval]] = {}
    for half in evaluate_auc(scorer, DATASETS, SPLITS):
        # seeded per half: each interval is reproducible whatever else the report holds
        rng = np.random.default_rng([settings.seed, DATASETS.index(half.dataset), SPLITS.index(half.split)])
        labels = [event.label for event in half.events]
        interval = auc_interval(labels, half.scores, rng, settings.confidence, settings.n_resamples)
        auc.setdefault(half.dataset, {})[half.split] = interval
    figures = {}
    if consistency:
        lexicon = lexicon_of(scorer, wsd=settings.wsd, min_depth=settings.min_depth)
        for dataset in DATASETS:
            events = load_plausibility_set(dataset, settings.consistency_split)
            chosen = [events[i].triple for i in consistency_sample(len(events), settings, dataset)]
            result = measure_consistency(scorer, chosen, lexicon, batch_size=settings.batch_size, progress=True)
            figures[dataset] = ConsistencyFigures(
                result.concavity_delta,
                result.scale_free_concavity_delta,
                result.local_extremum_rate,
                len(chosen),
                result.n_windows,
                result.lexicon,
            )
    return ModelResult(request.label, request.spec, scorer.probability_mapping, auc, figures)


def build_report(
    requests: Sequence[ModelRequest],
    optional: Sequence[ModelRequest],
    settings: ReportSettings,
    load: Callable[[str], TripleScorer],
    consistency: bool = True,
    saved: "SavedResults | None" = None,
) -> Report:
    """Evaluate every requested model; an `optional` one that cannot be loaded is listed as skipped instead.

    With `saved`, rows measured by an earlier, stopped run are read back instead of measured again.
    """
    models, skipped = [], {}
    conditions = {"settings": asdict(settings), "consistency": consistency}
    for request in [*requests, *optional]:
        known = saved.load(request, conditions) if saved else None
        if known is not None:
            models.append(known)
            continue
        try:
            scorer = load(request.spec)
        except PlausibilityError as error:
            if request not in optional:
                raise
            skipped[request.label] = str(error)
            continue
        result = evaluate_scorer(request, scorer, settings, consistency)
        if saved:
            saved.save(request, conditions, result)
        models.append(result)
    return Report(models, settings, skipped)

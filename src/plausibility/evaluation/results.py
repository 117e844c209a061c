"""One model's results: AUC with intervals on every benchmark half, and CCΔ / LER, under one set of settings."""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from plausibility.benchmarks.datasets import DATASETS, SPLITS, load_plausibility_set
from plausibility.benchmarks.judged_set import DEFAULT_FILLERS, JudgedSet
from plausibility.benchmarks.registry import judged_sets
from plausibility.evaluation.grids import measure_consistency
from plausibility.evaluation.intervals import AucInterval
from plausibility.evaluation.judged_figures import Figure
from plausibility.evaluation.judged_scores import ScoredSet, figures_of, score_sets, units_of
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.thesis import ThesisFigures, thesis_figures
from plausibility.lexicon.training_lexicon import lexicon_of
from plausibility.scorers.protocol import TripleScorer


@dataclass(frozen=True)
class ReportSettings:
    """How the report was computed; saved beside the results.

    Attributes:
        consistency_events: events drawn (seeded, without replacement) from each dataset's consistency
            split; None for all of them, as in the thesis.
        wsd, min_depth: overrides of each scorer's own lexicon (`lexicon_of`); None keeps its own.
        dtype: the precision the scorers were loaded in; it changes scores, so saved rows are kept per dtype.
        fillers, by: how judged sets from files are scored (a partial event's fillers) and split.
    """

    seed: int = 0
    n_resamples: int = 1000
    confidence: float = 0.95
    consistency_split: str = "test"
    consistency_events: int | None = 200
    wsd: str | None = None
    min_depth: int | None = None
    chunk_size: int = 1024
    dtype: str = "float32"
    fillers: tuple[str, ...] = DEFAULT_FILLERS
    by: tuple[str, ...] = ()


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
    """One model's row of every table: AUC per dataset and split, CCΔ / LER per dataset, and its figures on
    judged sets from files (`benchmarks`)."""

    label: str
    spec: str
    probability_mapping: str
    auc: dict[str, dict[str, AucInterval]]
    consistency: dict[str, ConsistencyFigures]
    benchmarks: tuple[Figure, ...] = ()

    @property
    def thesis(self) -> ThesisFigures | None:
        return thesis_figures(self.label)


def consistency_sample(n_events: int, settings: ReportSettings, dataset: str) -> list[int]:
    """Indices of the events whose grids are measured: all, or a seeded sample in set order."""
    if settings.consistency_events is None or settings.consistency_events >= n_events:
        return list(range(n_events))
    # one generator per dataset, so adding a model or a dataset never changes another's sample
    rng = np.random.default_rng([settings.seed, DATASETS.index(dataset)])
    return sorted(rng.choice(n_events, size=settings.consistency_events, replace=False).tolist())


def scored_halves(scorer: TripleScorer) -> list[ScoredSet]:
    """Every half of Pep-3k and 20Q scored as `evaluate` scores it (each half in one call); their AUC needs no
    probabilities."""
    return score_sets(units_of(scorer, probabilities=False), judged_sets(DATASETS, SPLITS))


def auc_intervals(figures: Sequence[Figure]) -> dict[str, dict[str, AucInterval]]:
    """The AUC of each Pep-3k and 20Q half among `figures`, `{dataset: {split: interval}}`."""
    auc: dict[str, dict[str, AucInterval]] = {}
    for f in figures:
        if f.benchmark in DATASETS and f.group == "all" and f.figure == "auc":
            auc.setdefault(f.benchmark, {})[f.split] = AucInterval(f.value, f.low, f.high)
    return auc


def consistency_figures(scorer: TripleScorer, settings: ReportSettings) -> dict[str, ConsistencyFigures]:
    """CCΔ (on the scorer's probabilities, and scale-free) and LER on each dataset's consistency split.

    Grids are laid out in the scorer's own lexicon (`lexicon_of`, with the settings' overrides), the same
    rule `plausibility consistency` follows.
    """
    figures = {}
    lexicon = lexicon_of(scorer.lexicon, wsd=settings.wsd, min_depth=settings.min_depth)
    for dataset in DATASETS:
        events = load_plausibility_set(dataset, settings.consistency_split)
        chosen = [events[i].triple for i in consistency_sample(len(events), settings, dataset)]
        result = measure_consistency(scorer, chosen, lexicon, chunk_size=settings.chunk_size, progress=True)
        figures[dataset] = ConsistencyFigures(
            result.concavity_delta,
            result.scale_free_concavity_delta,
            result.local_extremum_rate,
            len(chosen),
            result.n_windows,
            result.lexicon,
        )
    return figures


def evaluate_scorer(
    request: ModelRequest,
    scorer: TripleScorer,
    settings: ReportSettings,
    consistency: bool = True,
    judged: Sequence[JudgedSet] = (),
) -> ModelResult:
    """AUC with bootstrap intervals on every half of Pep-3k and 20Q; CCΔ / LER too with `consistency`; the
    figures of each judged set (from files) too, all computed as `evaluate` computes them."""
    files = score_sets(units_of(scorer, probabilities=False), judged, settings.fillers)  # none asks for accuracy
    scored = [*scored_halves(scorer), *files]
    figures = figures_of(scored, settings.by, settings.seed, settings.n_resamples, settings.confidence)
    return ModelResult(
        request.label,
        request.spec,
        scorer.probability_mapping,
        auc_intervals(figures),
        consistency_figures(scorer, settings) if consistency else {},
        tuple(f for f in figures if f.split == "all"),
    )

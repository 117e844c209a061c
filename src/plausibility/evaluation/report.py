"""A report over many models: each one measured once, its row kept as soon as it is, the unloadable ones listed."""

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from plausibility.errors import PlausibilityError
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.results import ModelResult, ReportSettings, evaluate_scorer
from plausibility.evaluation.saved_results import SavedResults
from plausibility.scorers.protocol import TripleScorer


@dataclass(frozen=True)
class Report:
    """Every evaluated model, and the requested ones that could not be loaded (label -> reason)."""

    models: list[ModelResult]
    settings: ReportSettings
    skipped: dict[str, str] = field(default_factory=dict)


def build_report(
    requests: Sequence[ModelRequest],
    optional: Sequence[ModelRequest],
    settings: ReportSettings,
    load: Callable[[str], TripleScorer],
    consistency: bool = True,
    saved: SavedResults | None = None,
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

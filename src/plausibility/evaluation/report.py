"""A report over many models: each one measured once, its row kept as soon as it is, the unloadable ones listed."""

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from plausibility.benchmarks.judged_set import JudgedSet
from plausibility.checksums import file_sha256
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
    judged: Sequence[JudgedSet] = (),
    judged_files: Sequence[Path] = (),
) -> Report:
    """Evaluate every requested model; an `optional` one that cannot be loaded is listed as skipped instead.

    `judged` sets (read from `judged_files`) are measured for every model too. With `saved`, rows measured by
    an earlier, stopped run under the same conditions (the files' content included) are read back.
    """
    models, skipped = [], {}
    files = {str(path): file_sha256(path) for path in judged_files}
    conditions = {"settings": asdict(settings), "consistency": consistency, "judged": files}
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
        result = evaluate_scorer(request, scorer, settings, consistency, judged)
        if saved:
            saved.save(request, conditions, result)
        models.append(result)
    return Report(models, settings, skipped)

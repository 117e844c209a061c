"""One model's consistency on one dataset half, written out: the JSON document and heatmaps of both ends."""

import json
import re
from collections.abc import Sequence
from pathlib import Path

from plausibility.atomic import atomic_write_text
from plausibility.benchmarks.datasets import LabelledEvent
from plausibility.evaluation.grids import ConsistencyResult, ScoredGrid
from plausibility.evaluation.heatmap import save_heatmap

REPORT = "consistency.json"


def _slug(grid: ScoredGrid) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(grid.grid.event).lower()).strip("-")


def ranked_events(result: ConsistencyResult) -> list[int]:
    """Events with at least one window, most consistent first (CCΔ, then LER; more windows first on ties)."""
    measured = [i for i, grid in enumerate(result.grids) if grid.concavity_delta is not None]
    return sorted(
        measured,
        key=lambda i: (
            result.grids[i].concavity_delta,
            result.grids[i].local_extremum_rate,
            -len(result.grids[i].windows),
        ),
    )


def _grid_record(grid: ScoredGrid, event: LabelledEvent) -> dict[str, object]:
    return {
        "event": str(grid.grid.event),
        "label": event.label,
        "subjects": [concept.text for concept in grid.grid.subjects],
        "objects": [concept.text for concept in grid.grid.objects],
        "subject_synsets": [concept.synset for concept in grid.grid.subjects],
        "object_synsets": [concept.synset for concept in grid.grid.objects],
        "subject_depths": list(grid.grid.subject_depths),
        "object_depths": list(grid.grid.object_depths),
        "scores": grid.scores.tolist(),
        "probabilities": grid.probabilities.tolist(),
        "windows": len(grid.windows),
        "ccd": grid.concavity_delta,
        "ccd_scale_free": grid.scale_free_concavity_delta,
        "ler": grid.local_extremum_rate,
    }


def consistency_document(
    model: str,
    dataset: str,
    split: str,
    events: Sequence[LabelledEvent],
    result: ConsistencyResult,
    heatmaps: dict[str, list[str]],
    dtype: str = "float32",
) -> dict[str, object]:
    """The figures of `result` with every event's grid, as `consistency.json` holds them."""
    return {
        "model": model,
        "dtype": dtype,
        "dataset": dataset,
        "split": split,
        "lexicon": result.lexicon,
        "probability_mapping": result.probability_mapping,
        **result.summary(),
        "higher_is_better": False,
        "events": len(events),
        "events_with_windows": len(ranked_events(result)),
        "unique_triples": result.n_unique_triples,
        "grid_triples": result.n_grid_triples,
        "heatmaps": heatmaps,
        "grids": [_grid_record(grid, event) for grid, event in zip(result.grids, events, strict=True)],
    }


def write_consistency_report(
    model: str,
    dataset: str,
    split: str,
    events: Sequence[LabelledEvent],
    result: ConsistencyResult,
    output: Path,
    heatmaps: int = 3,
    dtype: str = "float32",
) -> Path:
    """Write `output/consistency.json` and heatmaps of the `heatmaps` most and least consistent events."""
    ranked = ranked_events(result)
    count = min(max(heatmaps, 0), len(ranked) // 2)
    drawn: dict[str, list[str]] = {"most_consistent": [], "least_consistent": []}
    for end, picks in (("most_consistent", ranked[:count]), ("least_consistent", ranked[::-1][:count])):
        for rank, i in enumerate(picks, start=1):
            grid = result.grids[i]
            name = f"heatmaps/{end.split('_')[0]}-{rank}-{_slug(grid)}.png"
            title = f"{grid.grid.event}: CCΔ {grid.concavity_delta:.3g}, LER {grid.local_extremum_rate:.2f}"
            save_heatmap(grid, output / name, title)
            drawn[end].append(name)
    document = consistency_document(model, dataset, split, events, result, drawn, dtype)
    path = output / REPORT
    atomic_write_text(path, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return path

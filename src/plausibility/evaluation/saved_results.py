"""Each model's row of a report, saved as soon as it is measured, so that a stopped report resumes."""

import json
import re
from dataclasses import asdict
from pathlib import Path

from plausibility.atomic import atomic_write_text
from plausibility.errors import PlausibilityError
from plausibility.evaluation.intervals import AucInterval
from plausibility.evaluation.judged_figures import Figure
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.results import ConsistencyFigures, ModelResult
from plausibility.scorers.spec import fingerprint, parse_spec


class SavedResults:
    """Each model's row, written to a folder as soon as it is measured, so that a stopped report resumes.

    A row is read back only when it was measured under the same conditions (settings, and whether consistency
    was measured) from the same scorer: its `fingerprint` holds the content of every checkpoint, folder and
    triples file the SPEC names, however deep (an ensemble's members too), so a retrained model is measured
    again.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def load(self, request: ModelRequest, conditions: dict) -> ModelResult | None:
        path = self._path(request)
        if not path.is_file():
            return None
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None  # unreadable: measured again and overwritten
        if saved.get("key") != self._key(request, conditions):
            return None
        row = saved["result"]
        try:
            return ModelResult(
                row["label"],
                row["spec"],
                row["probability_mapping"],
                {
                    dataset: {split: AucInterval(**v) for split, v in halves.items()}
                    for dataset, halves in row["auc"].items()
                },
                {dataset: ConsistencyFigures(**v) for dataset, v in row["consistency"].items()},
                tuple(Figure(**figure) for figure in row.get("benchmarks", ())),
            )
        except (KeyError, TypeError):
            return None  # written by an older layout: measured again and overwritten

    def save(self, request: ModelRequest, conditions: dict, result: ModelResult) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        document = {"key": self._key(request, conditions), "result": asdict(result)}
        atomic_write_text(self._path(request), json.dumps(document, indent=2, ensure_ascii=False) + "\n")

    def _path(self, request: ModelRequest) -> Path:
        return self.folder / (re.sub(r"[^A-Za-z0-9._-]+", "_", request.label) + ".json")

    @staticmethod
    def _key(request: ModelRequest, conditions: dict) -> dict:
        try:
            built_from = fingerprint(parse_spec(request.spec))
        except PlausibilityError:  # not a SPEC this version reads: never matches a saved row
            built_from = None
        # `events`: a row saved before the evaluation read each event as its lemmas is measured again.
        key = {"label": request.label, "spec": request.spec, **conditions, "events": "lemmas"}
        key["fingerprint"] = built_from
        return json.loads(json.dumps(key))  # as a saved key reads back: tuples as lists

"""The human-judged plausibility sets, Pep-3k and 20Q, as typed records."""

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from plausibility.errors import DataFormatError, ResourceMissingError, UnknownNameError
from plausibility.resources.paths import data_dir
from plausibility.triple import Triple

DatasetName = Literal["pep3k", "20q"]
Split = Literal["valid", "test"]
DATASETS: tuple[str, ...] = get_args(DatasetName)
SPLITS: tuple[str, ...] = get_args(Split)
# How reports and charts name each set.
DATASET_TITLES = {"pep3k": "Pep-3k", "20q": "20Q"}


@dataclass(frozen=True, slots=True)
class LabelledEvent:
    """An event with its human judgement: 1 plausible, 0 implausible."""

    triple: Triple
    label: int


def read_labelled_triples(path: Path) -> list[LabelledEvent]:
    """Read `label<TAB>subject<TAB>verb<TAB>object` lines; any malformed line raises naming file and line."""
    if not path.is_file():
        raise ResourceMissingError(f"{path}: no such file; give a tab-separated file of label subject verb object")
    events = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            fields = line.rstrip("\r\n").split("\t")
            if len(fields) != 4:
                raise DataFormatError(
                    f"{path}:{number}: expected 4 tab-separated columns (label subject verb object), got {len(fields)}"
                )
            label, subject, verb, obj = (field.strip() for field in fields)
            if label not in ("0", "1"):
                raise DataFormatError(f"{path}:{number}: label must be 0 or 1, got {label!r}")
            if not (subject and verb and obj):
                raise DataFormatError(f"{path}:{number}: subject, verb and object must be non-empty")
            events.append(LabelledEvent(Triple(subject.lower(), verb.lower(), obj.lower()), int(label)))
    if not events:
        raise DataFormatError(f"{path}: no events; the file is empty")
    return events


def load_plausibility_set(name: str, split: str) -> list[LabelledEvent]:
    """One half of a vendored evaluation set (Pep-3k: 1,531 events per half; 20Q: 2,548)."""
    if name not in DATASETS:
        raise UnknownNameError("dataset", name, DATASETS)
    if split not in SPLITS:
        raise UnknownNameError("split", split, SPLITS)
    return read_labelled_triples(data_dir() / "evaluation" / name / f"{split}.tsv")

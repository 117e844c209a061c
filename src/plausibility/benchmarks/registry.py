"""The benchmarks known by name, and the judged sets a request names: named halves, or a file used whole.

Pep-3k, 20Q and the plain events come in a valid and a test half each: choose settings on the valid halves,
report the test halves once. PAP is a test set only: nothing is ever chosen on it. A file given with `--data`
is used whole (split `all`): it is a held-out benchmark, and nothing should be chosen on it.
"""

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from plausibility.benchmarks.datasets import DATASETS, SPLITS, load_plausibility_set
from plausibility.benchmarks.judged_set import JUDGEMENT_COLUMNS, WORD_COLUMNS, JudgedSet, read_judged_set
from plausibility.errors import UnknownNameError
from plausibility.resources.paths import data_dir

# Each named benchmark and its splits. PAP (Eichel & Schulte im Walde 2023): 1,733 events of concrete, mixed and
# abstract words, test only. `plain`: 320 events written for this project, of six kinds (data/evaluation/plain).
# `reversals`: attested animate-animate training events against their role reversals (tools/build_reversals.py).
BENCHMARKS: dict[str, tuple[str, ...]] = {
    **{name: SPLITS for name in DATASETS},
    "pap": ("test",),
    "plain": SPLITS,
    "reversals": SPLITS,
}
# What `evaluate` measures when no benchmark is named.
DEFAULT_BENCHMARKS: tuple[str, ...] = DATASETS
# The columns each table-backed benchmark always gives figures by, and whether it reports accuracy at .5.
_TABLES = {"pap": (("abstractness_combination",), False), "plain": (("kind",), True), "reversals": ((), False)}


def named_set(name: str, split: str) -> JudgedSet:
    """One split of a named benchmark as a judged set (Pep-3k and 20Q: binary labels, so AUC; PAP: labels, the
    annotators' agreed labels and ratings, by abstractness; plain: labels and accuracy at .5, by kind)."""
    if name not in BENCHMARKS:
        raise UnknownNameError("benchmark", name, tuple(BENCHMARKS))
    if split not in BENCHMARKS[name]:
        raise UnknownNameError(f"split of {name}", split, BENCHMARKS[name])
    if name in _TABLES:
        by, accuracy = _TABLES[name]
        judged = read_judged_set(data_dir() / "evaluation" / name / f"{split}.tsv", name)
        return replace(judged, split=split, by=by, accuracy=accuracy)
    events = load_plausibility_set(name, split)
    table = pd.DataFrame(
        {
            "subject": [event.triple.subject for event in events],
            "verb": [event.triple.verb for event in events],
            "object": [event.triple.object for event in events],
            "label": [event.label for event in events],
        }
    )
    return JudgedSet(name, split, table, ("label",))


def judged_sets(names: Sequence[str], splits: Sequence[str], files: Sequence[Path] = ()) -> list[JudgedSet]:
    """The named benchmarks' splits (in the order given), then each file used whole; file names must differ."""
    sets = [named_set(name, split) for name in names for split in splits if split in BENCHMARKS[name]]
    for path in files:
        sets.append(read_judged_set(path, _unique_name(path, {judged.name for judged in sets})))
    return sets


def _unique_name(path: Path, taken: set[str]) -> str:
    """A file's stem, or its path where that stem is already a benchmark's name."""
    return path.stem if path.stem not in taken else str(path)


def check_by(sets: Sequence[JudgedSet], by: Sequence[str]) -> None:
    """Every `--by` column must be a column of some file (each file is split by the ones it has)."""
    for column in by:
        if not any(column in judged.table.columns for judged in sets if judged.split == "all"):
            raise UnknownNameError("column to split by (no --data file has it)", column, _extra_columns(sets))


def _extra_columns(sets: Sequence[JudgedSet]) -> list[str]:
    plain = {*WORD_COLUMNS, *JUDGEMENT_COLUMNS}
    return sorted({str(c) for judged in sets if judged.split == "all" for c in judged.table.columns} - plain)

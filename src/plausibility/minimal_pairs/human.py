"""Human accuracies per comparison (and per group) from a CSV of per-item human outcomes."""

import csv

import numpy as np

from plausibility.errors import DataFormatError
from plausibility.minimal_pairs.suite_config import HumanReference

ALL = "all"  # the group key of figures over every item


def read_human_accuracy(reference: HumanReference) -> dict[tuple[str, str], float]:
    """Mean of the 0/1 `correct` column per (comparison key, group value), plus (key, "all") over groups."""
    if not reference.path.is_file():
        raise DataFormatError(f"{reference.path}: no such file; the suite's `human.path` must name a CSV")
    outcomes: dict[tuple[str, str], list[float]] = {}
    with reference.path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        needed = [reference.comparison_column, reference.correct_column]
        if reference.group_column:
            needed.append(reference.group_column)
        missing = [column for column in needed if column not in (reader.fieldnames or [])]
        if missing:
            raise DataFormatError(f"{reference.path}: missing columns {missing}; found {reader.fieldnames}")
        for number, row in enumerate(reader, start=2):
            try:
                correct = float(row[reference.correct_column])
            except ValueError:
                raise DataFormatError(f"{reference.path} line {number}: `correct` is not a number") from None
            key = row[reference.comparison_column]
            outcomes.setdefault((key, ALL), []).append(correct)
            if reference.group_column:
                outcomes.setdefault((key, row[reference.group_column]), []).append(correct)
    return {key: float(np.mean(values)) for key, values in outcomes.items()}

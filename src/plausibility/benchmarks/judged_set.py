"""A judged set: events with human judgements read from any table, and which figures those judgements allow.

A table (TSV, CSV, JSONL or Parquet, read by `plausibility.tables` as every door reads one) has `subject`, `verb`,
`object` columns and one or more judgement columns; what they hold decides the figures (`kinds`):

- `label` (0 or 1 on every row): plausible or not, so ROC-AUC;
- `rating` (a number on every row): a graded judgement, so Spearman's and Pearson's correlations;
- `pair` with `label`: events sharing a pair id are a typical (1) and an atypical (0) event, so the share of
  pairs the scorer orders right (pairwise accuracy) instead of AUC;
- `agreed_label` (0, 1, or empty where the annotators did not agree): AUC over the events with one, beside the
  share without (PAP's strict-majority label);
- `reversal_of` with `label`: rows sharing an id are an event (1) and its role reversal (0), so beside the AUC the
  share of those pairs the scorer orders right (reversal accuracy); other rows leave it empty.

A subject or object left empty makes the row a partial event (a verb and one argument, as in selectional-
preference sets): it is scored with the empty slot filled by each of a set of generic nouns. Every other
column is kept, so figures can be split by it (`--by`).
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import pandas as pd

from plausibility.errors import DataFormatError
from plausibility.tables import read_table
from plausibility.triple import word_problem

Kind = Literal["label", "rating", "pairs", "agreed_label", "reversals"]
WORD_COLUMNS = ("subject", "verb", "object")
JUDGEMENT_COLUMNS = ("label", "rating", "pair", "agreed_label", "reversal_of")
# The generic nouns that fill an empty subject or object: a partial event scores as the mean over them.
DEFAULT_FILLERS = ("person", "thing")
# Rows named in one error message before "and N more".
_SHOWN = 5


@dataclass(frozen=True)
class JudgedSet:
    """Judged events of one benchmark split, with the kinds of figure their judgements allow.

    Attributes:
        name: the benchmark (`pep3k`, a file's stem, ...).
        split: `valid`, `test`, or `all` for a set used whole.
        table: one row per event: subject, verb, object (an empty subject or object: a partial event), the
            judgement columns, and any others (for `--by`).
        kinds: what the judgements allow, in the order figures are given.
        by: columns whose groups always get figures of their own (a named benchmark's kinds of event).
        accuracy: also give the accuracy of the probability's side of .5 (events a person judges at a glance).
    """

    name: str
    split: str
    table: pd.DataFrame
    kinds: tuple[Kind, ...]
    by: tuple[str, ...] = ()
    accuracy: bool = False

    def groups(self, by: str) -> list[tuple[str, "JudgedSet"]]:
        """The set split by the values of column `by`, in sorted order, as `(value, subset)`."""
        if by not in self.table.columns:
            known = ", ".join(c for c in self.table.columns if c not in (*WORD_COLUMNS, *JUDGEMENT_COLUMNS))
            raise DataFormatError(f"{self.name}: no column {by!r} to split by; its other columns: {known or 'none'}")
        return [
            (str(value), replace(self, table=rows.reset_index(drop=True), by=()))
            for value, rows in self.table.groupby(self.table[by].astype(str), sort=True)
        ]


def _rows(numbers: Sequence[int]) -> str:
    """Data rows as a reader counts them: 1-based, after any header."""
    shown = ", ".join(str(number) for number in numbers[:_SHOWN])
    return shown + (f" and {len(numbers) - _SHOWN} more" if len(numbers) > _SHOWN else "")


def _refuse(path: Path, where: pd.Series, message: str) -> None:
    """Fail naming the data rows where `where` holds, in `message`'s `{rows}`."""
    rows = where.to_numpy().nonzero()[0] + 1
    if len(rows):
        raise DataFormatError(f"{path}: " + message.format(rows=_rows(rows)))


def _check_words(path: Path, table: pd.DataFrame) -> None:
    for column in WORD_COLUMNS:
        if column not in table.columns:
            raise DataFormatError(f"{path}: no {column!r} column; give subject, verb, object and a label or rating")
        table[column] = table[column].fillna("").astype(str).str.strip().str.lower()
    for column in WORD_COLUMNS:
        garbled = [number + 1 for number, word in enumerate(table[column]) if word_problem(word) is not None]
        if garbled:
            raise DataFormatError(f"{path}: rows {_rows(garbled)} hold a control character in their {column}")
    _refuse(path, table["verb"] == "", "rows {rows} have no verb; every event needs one")
    neither = (table["subject"] == "") & (table["object"] == "")
    _refuse(path, neither, "rows {rows} have neither subject nor object; give at least one")


def _check_label(path: Path, table: pd.DataFrame) -> None:
    labels = table["label"].astype(str).str.strip()
    _refuse(path, ~labels.isin(["0", "1"]), "label must be 0 or 1, not so in rows {rows}")
    table["label"] = labels.astype(int)


def _check_rating(path: Path, table: pd.DataFrame) -> None:
    ratings = pd.to_numeric(table["rating"], errors="coerce")
    _refuse(path, ratings.isna(), "rating must be a number, not so in rows {rows}")
    table["rating"] = ratings.astype(float)


def _check_agreed_label(path: Path, table: pd.DataFrame) -> None:
    agreed = table["agreed_label"].fillna("").astype(str).str.strip()
    _refuse(path, ~agreed.isin(["0", "1", ""]), "agreed_label must be 0, 1 or empty, not so in rows {rows}")
    table["agreed_label"] = pd.to_numeric(agreed.replace("", None)).astype("Int64")


def _check_pairs(path: Path, table: pd.DataFrame, column: str = "pair") -> None:
    table[column] = table[column].fillna("").astype(str).str.strip()
    for pair, rows in table[table[column] != ""].groupby(column, sort=True):
        if sorted(rows["label"].tolist()) != [0, 1]:
            numbers = (rows.index.to_numpy() + 1).tolist()
            raise DataFormatError(
                f"{path}: pair {pair!r} (rows {_rows(numbers)}) must hold exactly one typical (label 1) and one "
                "atypical (label 0) event"
            )


def read_judged_set(path: Path, name: str | None = None) -> JudgedSet:
    """A table of judged events; its kind is read from its columns (see the module docstring).

    Raises:
        DataFormatError: an unknown format, no judgement column, a bad label or rating, or a pair that is not
            one typical and one atypical event; the message names the rows.
    """
    table = read_table(path, "a table of subject, verb, object and a judgement")
    table.columns = [str(column).lower() for column in table.columns]
    if table.empty:
        raise DataFormatError(f"{path}: no events; give one row per event")
    _check_words(path, table)
    kinds: list[Kind] = []
    if "label" in table.columns:
        _check_label(path, table)
        if "pair" in table.columns:
            _check_pairs(path, table)
            kinds.append("pairs")
        else:
            kinds.append("label")
        if "reversal_of" in table.columns:
            _check_pairs(path, table, "reversal_of")
            kinds.append("reversals")
    if "rating" in table.columns:
        _check_rating(path, table)
        kinds.append("rating")
    if "agreed_label" in table.columns:
        _check_agreed_label(path, table)
        kinds.append("agreed_label")
    if not kinds:
        raise DataFormatError(
            f"{path}: no judgement column; add label (0/1: AUC), rating (a number: Spearman, Pearson) or "
            "pair and label (one typical and one atypical event per pair: pairwise accuracy)"
        )
    return JudgedSet(name or path.stem, "all", table.reset_index(drop=True), tuple(kinds))

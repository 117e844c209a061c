"""Triples read from tables on disk: streamed in by chunks through `plausibility.tables`, checked per line."""

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from plausibility.tables import Record, ordered_columns, read_rows
from plausibility.triple import TRIPLE_COLUMNS, query_word_problem, shown


@dataclass(frozen=True, slots=True)
class InvalidLine:
    """A row that is not a triple: its 1-based line number (row number for Parquet) and why."""

    line: int
    reason: str


@dataclass(frozen=True)
class TripleChunk:
    """Consecutive rows of a table: the valid ones (subject, verb, object, then extras) and the invalid ones."""

    rows: pd.DataFrame
    invalid: list[InvalidLine]


def scored_word(value: object) -> str:
    """A triple's field as it is scored, on every path that reads one: stripped and lowercased."""
    return str(value).strip().lower()


def triple_problem(record: Record) -> str | None:
    """Why a record's subject, verb and object are not three single words, or None when they are.

    The one rule for a file's fields, the command line's words, the Python API's and the HTTP API's: each is one
    lemma (`query_word_problem`), so a multiword noun ("ice cream"), a control character or a word longer than
    `MAX_WORD_LENGTH` is rejected on every path alike, before any model reads it.
    """
    for name in TRIPLE_COLUMNS:
        value = record.get(name)
        if not isinstance(value, str) or not value.strip():
            return f"{name} is missing or empty"
        if (problem := query_word_problem(value)) is not None:
            return f"{name} {shown(value)} {problem}"
    return None


def read_triple_chunks(path: Path, chunk_size: int = 4096) -> Iterator[TripleChunk]:
    """Stream a triple table in chunks of at most `chunk_size` rows, keeping input order and extra columns.

    Words are lowercased and stripped; rows that are not triples are reported in `invalid`, never dropped
    silently. Memory stays flat in the file's size.
    """
    rows = read_rows(path, "a TSV, CSV, JSONL or Parquet table of triples")
    while block := list(itertools.islice(rows, chunk_size)):
        valid: list[Record] = []
        invalid: list[InvalidLine] = []
        for number, record, reason in block:
            reason = reason or triple_problem(record)  # type: ignore[arg-type]
            if reason is not None:
                invalid.append(InvalidLine(number, reason))
                continue
            for name in TRIPLE_COLUMNS:
                record[name] = scored_word(record[name])  # type: ignore[index]
            valid.append(record)  # type: ignore[arg-type]
        yield TripleChunk(pd.DataFrame.from_records(valid, columns=ordered_columns(valid)), invalid)

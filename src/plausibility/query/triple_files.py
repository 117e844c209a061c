"""Triple tables on disk (TSV, CSV, JSONL, Parquet): streamed in by chunks, checked per line, written atomically."""

import csv
import itertools
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Literal, TextIO

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from plausibility.atomic import atomic_path
from plausibility.corpus.artefacts import TRIPLE_COLUMNS
from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.triple import query_word_problem, shown

TableFormat = Literal["tsv", "csv", "jsonl", "parquet"]
_SUFFIXES: dict[str, TableFormat] = {".tsv": "tsv", ".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}

Record = dict[str, object]


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


def table_format(path: Path) -> TableFormat:
    """The format a path's suffix names; anything else is an error that lists the known suffixes."""
    suffix = path.suffix.lower()
    if suffix not in _SUFFIXES:
        raise DataFormatError(f"{path}: unknown table format {suffix or '(no suffix)'!r}; use {', '.join(_SUFFIXES)}")
    return _SUFFIXES[suffix]


def column_name(name: str) -> str:
    """A header's name as read: subject, verb or object in any case (and spacing) names that column; any other
    column keeps its own spelling."""
    name = name.strip()
    return name.lower() if name.lower() in TRIPLE_COLUMNS else name


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


def _checked_rows(reader: "csv._reader", path: Path) -> Iterator[list[str]]:
    """The reader's rows, its errors (a field over the size limit, say) turned into one line naming the line."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            problem = str(error)
            if "field limit" in problem:
                problem = f"a field is longer than {csv.field_size_limit()} characters; is this a table of triples?"
            raise DataFormatError(f"{path} line {reader.line_num}: {problem}") from error


def _delimited_records(handle: TextIO, fmt: TableFormat, path: Path) -> Iterator[tuple[int, Record | None, str | None]]:
    """Rows of a TSV/CSV; a header naming subject, verb and object (any case) is optional (without: 3 columns).

    CSV follows RFC 4180 quoting. TSV has no quoting (IANA's text/tab-separated-values): a `"` is a character.
    """
    reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE) if fmt == "tsv" else csv.reader(handle)
    checked = _checked_rows(reader, path)
    first = next(checked, None)
    if first is None:
        return
    header = [column_name(name) for name in first]
    rows: Iterator[list[str]] = checked
    if not set(TRIPLE_COLUMNS) <= set(header):
        header = list(TRIPLE_COLUMNS)
        rows = itertools.chain([first], checked)
    for values in rows:
        if not any(value.strip() for value in values):
            yield reader.line_num, None, "empty line"
        elif len(values) != len(header):
            yield reader.line_num, None, f"expected {len(header)} columns, got {len(values)}"
        else:
            yield reader.line_num, dict(zip(header, values, strict=True)), None


def _jsonl_records(handle: TextIO) -> Iterator[tuple[int, Record | None, str | None]]:
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            yield number, None, "empty line"
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            yield number, None, f"not JSON ({error.msg})"
            continue
        if isinstance(record, dict):
            yield number, {column_name(str(key)): value for key, value in record.items()}, None
        else:
            yield number, None, "not a JSON object"


def _records(path: Path, fmt: TableFormat) -> Iterator[tuple[int, Record | None, str | None]]:
    """(line number, record or None, reason when unreadable) for every data row of the table."""
    if fmt == "parquet":
        numbers = itertools.count(1)
        for batch in pq.ParquetFile(path).iter_batches():
            for record in batch.rename_columns([column_name(name) for name in batch.schema.names]).to_pylist():
                yield next(numbers), record, None
        return
    # utf-8-sig drops the byte-order mark some editors write first, which would otherwise join the header.
    with path.open(encoding="utf-8-sig", newline="") as handle:
        yield from _jsonl_records(handle) if fmt == "jsonl" else _delimited_records(handle, fmt, path)


def read_triple_chunks(path: Path, chunk_size: int = 4096) -> Iterator[TripleChunk]:
    """Stream a triple table in chunks of at most `chunk_size` rows, keeping input order and extra columns.

    Words are lowercased and stripped; rows that are not triples are reported in `invalid`, never dropped
    silently. Memory stays flat in the file's size.
    """
    if not path.is_file():
        raise ResourceMissingError(f"{path}: no such file; give a TSV, CSV, JSONL or Parquet table of triples")
    fmt = table_format(path)
    try:
        records = _records(path, fmt)
        while block := list(itertools.islice(records, chunk_size)):
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
            yield TripleChunk(pd.DataFrame.from_records(valid, columns=_columns(valid)), invalid)
    except UnicodeDecodeError as error:
        raise DataFormatError(f"{path}: not UTF-8 text (byte {error.start}); is it a binary file?") from error
    except (pa.ArrowInvalid, OSError) as error:
        raise DataFormatError(f"{path}: unreadable as {fmt} ({error})") from error


def _columns(records: list[Record]) -> list[str]:
    """Triple columns first, then extras in first-seen order."""
    extras = dict.fromkeys(key for record in records for key in record if key not in TRIPLE_COLUMNS)
    return [*TRIPLE_COLUMNS, *extras]


class TableWriter:
    """Writes chunks to a hidden partial file beside `path` (`atomic_path`), renamed into place only on success."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.format = table_format(path)
        self._atomic = atomic_path(path)
        self._temporary: Path | None = None
        self._parquet: pq.ParquetWriter | None = None
        self._text: TextIO | None = None
        self._header_written = False
        self._columns: list[str] = []

    def __enter__(self) -> "TableWriter":
        self._temporary = self._atomic.__enter__()
        if self.format != "parquet":
            self._text = self._temporary.open("w", encoding="utf-8", newline="")
        return self

    def write(self, rows: pd.DataFrame) -> None:
        if rows.empty:
            # A chunk whose every row was skipped has neither column types nor the columns that scoring adds:
            # the first rows scored give the header or schema; an output that gets none has these columns.
            self._columns = self._columns or list(rows.columns)
            return
        self._columns = list(rows.columns)
        if self.format == "parquet":
            table = pa.Table.from_pandas(rows, preserve_index=False)
            if self._parquet is None:
                self._parquet = pq.ParquetWriter(self._temporary, table.schema)
            self._parquet.write_table(table.cast(self._parquet.schema))
        elif self.format == "jsonl":
            # json.dumps writes floats by repr (pandas' to_json rounds to 10 decimals); NaN becomes null, and
            # what JSON has no type for (a Parquet timestamp, say) its text.
            for record in rows.to_dict("records"):
                clean = {key: None if isinstance(value, float) and math.isnan(value) else value
                         for key, value in record.items()}  # fmt: skip
                self._text.write(json.dumps(clean, ensure_ascii=False, default=str) + "\n")  # type: ignore[union-attr]
        else:
            self._write_delimited(rows)

    def _write_delimited(self, rows: pd.DataFrame) -> None:
        options = {"sep": ",", "quoting": csv.QUOTE_MINIMAL}
        if self.format == "tsv":
            # TSV is read without quoting, so it is written without: a `"` stays a character both ways.
            options = {"sep": "\t", "quoting": csv.QUOTE_NONE}
        try:
            rows.to_csv(self._text, index=False, header=not self._header_written, **options)
        except csv.Error as error:
            raise DataFormatError(
                f"{self.path}: a value holds a tab or line break, which TSV cannot hold; write .csv, .jsonl or "
                ".parquet instead"
            ) from error
        self._header_written = True

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        try:
            if self._parquet is None and self.format == "parquet" and kind is None:
                pq.write_table(pa.table({name: pa.array([], pa.string()) for name in self._columns}), self._temporary)
            if not self._header_written and self.format in ("tsv", "csv") and kind is None:
                self._write_delimited(pd.DataFrame(columns=self._columns))
            if self._parquet is not None:
                self._parquet.close()
            if self._text is not None:
                self._text.close()
        except BaseException as failure:
            self._atomic.__exit__(type(failure), failure, failure.__traceback__)
            raise
        # Renames the partial into place after a clean block; removes it after an error.
        self._atomic.__exit__(kind, error, traceback)

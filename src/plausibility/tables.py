"""Tables of events on disk (TSV, CSV, JSON lines, Parquet): the one reader every door uses, and the writer.

Whether a delimited file's first row is a header, and how many columns a row must have, is decided here only,
so `score --input`, the Ray engine and `evaluate --data` read a file alike: a byte-order mark is dropped, CRLF
line ends are read as line ends, CSV follows RFC 4180 quoting and TSV has none (IANA's text/tab-separated-values:
a `"` is a character).
"""

import csv
import itertools
import json
import math
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Literal, TextIO

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from plausibility.atomic import atomic_path
from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.triple import TRIPLE_COLUMNS

TableFormat = Literal["tsv", "csv", "jsonl", "parquet"]
SUFFIXES: dict[str, TableFormat] = {".tsv": "tsv", ".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet"}
# Other names a header may give a triple's columns, in any case.
_ALIASES = {"subj": "subject", "predicate": "verb", "pred": "verb", "obj": "object"}

Record = dict[str, object]
# A data row as read: its 1-based line number (row number for Parquet), the record, or why there is none.
Row = tuple[int, Record | None, str | None]


def table_format(path: Path) -> TableFormat:
    """The format a path's suffix names; anything else is an error that lists the known suffixes."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise DataFormatError(f"{path}: unknown table format {suffix or '(no suffix)'!r}; use {', '.join(SUFFIXES)}")
    return SUFFIXES[suffix]


def column_name(name: str) -> str:
    """A header's name as read: subject, verb or object (or subj, predicate, pred, obj) in any case and spacing
    names that column; any other column keeps its own spelling, stripped."""
    name = str(name).strip()
    known = _ALIASES.get(name.lower(), name.lower())
    return known if known in TRIPLE_COLUMNS else name


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
                problem = f"a field is longer than {csv.field_size_limit()} characters; is this a table of events?"
            raise DataFormatError(f"{path} line {reader.line_num}: {problem}") from error


def _header(first: list[str], path: Path) -> list[str] | None:
    """The column names if the first row is a header (it names a subject, verb or object column), else None."""
    names = [column_name(value) for value in first]
    named = [name for name in TRIPLE_COLUMNS if name in names]
    if not named:
        return None
    if len(named) < len(TRIPLE_COLUMNS):
        missing = ", ".join(name for name in TRIPLE_COLUMNS if name not in names)
        raise DataFormatError(
            f"{path}: its header row ({', '.join(first)}) names no {missing} column; name the columns subject, verb "
            "and object (or subj, predicate, obj)"
        )
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        raise DataFormatError(f"{path}: its header row names {', '.join(duplicated)} twice; name each column once")
    return names


def _delimited_rows(handle: TextIO, fmt: TableFormat, path: Path) -> Iterator[Row]:
    reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE) if fmt == "tsv" else csv.reader(handle)
    checked = _checked_rows(reader, path)
    first = next(checked, None)
    if first is None:
        return
    header = _header(first, path)
    rows: Iterator[list[str]] = checked
    if header is None:
        rows = itertools.chain([first], checked)
    for values in rows:
        if not any(value.strip() for value in values):
            yield reader.line_num, None, "empty line"
        elif header is None and len(values) != len(TRIPLE_COLUMNS):
            yield (
                reader.line_num,
                None,
                (
                    f"has {len(values)} columns, not 3 (subject verb object); a header row naming subject, verb and "
                    "object allows others"
                ),
            )
        elif header is not None and len(values) != len(header):
            yield reader.line_num, None, f"has {len(values)} columns where its header row names {len(header)}"
        else:
            yield reader.line_num, dict(zip(header or TRIPLE_COLUMNS, values, strict=True)), None


def _jsonl_rows(handle: TextIO) -> Iterator[Row]:
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
            yield number, {column_name(key): value for key, value in record.items()}, None
        else:
            yield number, None, "not a JSON object"


def _rows(path: Path, fmt: TableFormat) -> Iterator[Row]:
    if fmt == "parquet":
        numbers = itertools.count(1)
        for batch in pq.ParquetFile(path).iter_batches():
            for record in batch.rename_columns([column_name(name) for name in batch.schema.names]).to_pylist():
                yield next(numbers), record, None
        return
    # utf-8-sig drops the byte-order mark some editors write first, which would otherwise join the header.
    with path.open(encoding="utf-8-sig", newline="") as handle:
        yield from _jsonl_rows(handle) if fmt == "jsonl" else _delimited_rows(handle, fmt, path)


def read_rows(path: Path, what: str = "a TSV, CSV, JSONL or Parquet table of events") -> Iterator[Row]:
    """Every data row of a table, streamed, with its line number; a row that is no record comes with the reason.

    Column names are `column_name`'s. A TSV or CSV needs no header when it has exactly the three columns subject,
    verb, object; with a header, any others are kept.

    Raises:
        ResourceMissingError: no such file (the message asks for `what`).
        DataFormatError: an unknown suffix, a header without a triple column, text that is not UTF-8, or a file
            its format's reader cannot read.
    """
    if not path.is_file():
        raise ResourceMissingError(f"{path}: no such file; give {what}")
    fmt = table_format(path)
    try:
        yield from _rows(path, fmt)
    except UnicodeDecodeError as error:
        raise DataFormatError(f"{path}: not UTF-8 text (byte {error.start}); is it a binary file?") from error
    except (pa.ArrowInvalid, OSError) as error:
        raise DataFormatError(f"{path}: unreadable as {fmt} ({error})") from error


def ordered_columns(records: list[Record]) -> list[str]:
    """Triple columns first, then the others in first-seen order."""
    extras = dict.fromkeys(key for record in records for key in record if key not in TRIPLE_COLUMNS)
    return [*TRIPLE_COLUMNS, *extras]


def read_table(path: Path, what: str = "a table of events") -> pd.DataFrame:
    """A whole table, read by `read_rows` (empty lines skipped); any other row that is no record is an error
    naming its line."""
    records: list[Record] = []
    for number, record, reason in read_rows(path, what):
        if record is not None:
            records.append(record)
        elif reason != "empty line":
            raise DataFormatError(f"{path} line {number}: {reason}")
    return pd.DataFrame.from_records(records, columns=ordered_columns(records))


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

"""The Parquet and JSON artefacts of extraction, written once and atomically, and the count tables read back."""

import csv
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from plausibility.atomic import atomic_path, atomic_write_text
from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.triple import TRIPLE_COLUMNS, Triple

if TYPE_CHECKING:
    import pandas as pd

NEGATIVE_COLUMNS = ("negative_subject", "negative_verb", "negative_object")
# A pairs file: the attested event's columns, then its pseudo-negative's.
PAIR_COLUMNS = (*TRIPLE_COLUMNS, *NEGATIVE_COLUMNS)
# Optional in a pairs file: a teacher's probabilities of the two events, which a net then learns in place of 1 and 0.
TARGET_COLUMNS = ("target", "negative_target")
TSV_COLUMNS = ("subject", "verb", "object", "count")


def write_json(path: Path, content: Mapping[str, object]) -> None:
    """Write `content` as indented JSON, atomically."""
    atomic_write_text(path, json.dumps(content, indent=2) + "\n")


def _write_table(path: Path, table: pa.Table) -> None:
    # Dictionary encoding suits the few thousand distinct lemmas repeated over many rows.
    with atomic_path(path) as temporary:
        pq.write_table(table, temporary, compression="zstd", use_dictionary=True)


def write_triples(path: Path, counts: Mapping[Triple, int]) -> None:
    """Columns `subject, verb, object` (str) and `count` (int64), sorted by (subject, verb, object)."""
    ordered = sorted(counts, key=lambda triple: (triple.subject, triple.verb, triple.object))
    columns = {name: [getattr(triple, name) for triple in ordered] for name in TRIPLE_COLUMNS}
    table = pa.table(
        {
            **{name: pa.array(values, pa.string()) for name, values in columns.items()},
            "count": pa.array([counts[triple] for triple in ordered], pa.int64()),
        }
    )
    _write_table(path, table)


def read_triples(path: Path) -> dict[Triple, int]:
    """The counts of a triples file written by `write_triples`."""
    if not path.is_file():
        raise ResourceMissingError(f"{path}: no such file; run `plausibility extract` to write it")
    table = pq.read_table(path)
    missing = [name for name in (*TRIPLE_COLUMNS, "count") if name not in table.column_names]
    if missing:
        raise DataFormatError(f"{path}: missing columns {', '.join(missing)}; expected subject, verb, object, count")
    rows = zip(*(table.column(name).to_pylist() for name in (*TRIPLE_COLUMNS, "count")), strict=True)
    return {Triple(subject, verb, obj): count for subject, verb, obj, count in rows}


def _read_tsv(path: Path) -> dict[Triple, int]:
    """Counts of a tab-separated file with the header `subject verb object count`."""
    counts: Counter[Triple] = Counter()
    with path.open(encoding="utf-8", newline="") as lines:
        rows = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(rows, None)
        if header is None or tuple(field.strip() for field in header) != TSV_COLUMNS:
            raise DataFormatError(f"{path}:1: expected the header {' '.join(TSV_COLUMNS)} (tab-separated)")
        for number, row in enumerate(rows, start=2):
            if len(row) != len(TSV_COLUMNS):
                raise DataFormatError(f"{path}:{number}: expected 4 tab-separated columns, got {len(row)}")
            subject, verb, obj, count = (field.strip() for field in row)
            if not (subject and verb and obj) or not count.isdigit():
                raise DataFormatError(f"{path}:{number}: need non-empty words and a non-negative integer count")
            counts[Triple(subject.lower(), verb.lower(), obj.lower())] += int(count)
    return dict(counts)


def read_counts(path: Path) -> dict[Triple, int]:
    """Triple counts from a Parquet file (as `plausibility extract` writes) or a TSV with a header."""
    if not path.is_file():
        raise ResourceMissingError(
            f"{path}: no such triples file; give a Parquet or TSV of subject, verb, object, count"
        )
    if path.suffix.lower() == ".parquet":
        return read_triples(path)
    return _read_tsv(path)


def read_count_table(path: Path) -> "pd.DataFrame":
    """`read_counts` as a table (subject, verb, object, count): a Parquet file is read without a row of Python."""
    if path.is_file() and path.suffix.lower() == ".parquet":
        table = pq.read_table(path)
        missing = [name for name in (*TRIPLE_COLUMNS, "count") if name not in table.column_names]
        if missing:
            raise DataFormatError(
                f"{path}: missing columns {', '.join(missing)}; expected subject, verb, object, count"
            )
        return table.select([*TRIPLE_COLUMNS, "count"]).to_pandas()
    import pandas as pd

    counts = read_counts(path)
    columns = {name: [getattr(triple, name) for triple in counts] for name in TRIPLE_COLUMNS}
    return pd.DataFrame({**columns, "count": list(counts.values())})


def write_pairs(path: Path, events: Sequence[Triple], negatives: Sequence[Triple]) -> None:
    """Training pairs: the attested event's columns, then `negative_subject, negative_verb, negative_object`."""
    columns = {name: [getattr(event, name) for event in events] for name in TRIPLE_COLUMNS}
    columns |= {
        negative: [getattr(event, name) for event in negatives]
        for negative, name in zip(NEGATIVE_COLUMNS, TRIPLE_COLUMNS, strict=True)
    }
    _write_table(path, pa.table({name: pa.array(values, pa.string()) for name, values in columns.items()}))


def read_pairs(path: Path) -> pa.Table:
    """The six columns of a pairs file (as `write_pairs` writes them), checked, in `PAIR_COLUMNS` order.

    Every reader of pairs goes through here: the data module, GloVe+MLP's vocabulary, calibration and the
    bundled lexicon.
    """
    if not path.is_file():
        raise ResourceMissingError(f"{path}: no such pairs file; build it with `plausibility negatives`")
    try:
        names = pq.read_schema(path).names
    except (pa.ArrowInvalid, OSError) as error:
        raise DataFormatError(
            f"{path}: not a pairs table with {', '.join(PAIR_COLUMNS)} ({str(error).splitlines()[0]}); "
            "build it with `plausibility negatives`"
        ) from error
    missing = [name for name in PAIR_COLUMNS if name not in names]
    if missing:
        raise DataFormatError(f"{path}: missing columns {', '.join(missing)}; expected {', '.join(PAIR_COLUMNS)}")
    return pq.read_table(path, columns=list(PAIR_COLUMNS))


def read_pair_targets(path: Path) -> tuple[list[float], list[float]] | None:
    """The teacher's probabilities of a pairs file's events (attested, negative), or None where it has none.

    Both columns or neither, each a probability: a net trained on them learns the teacher's judgement of each
    event (distillation) rather than "attested, not a swap".
    """
    names = pq.read_schema(path).names
    present = [name for name in TARGET_COLUMNS if name in names]
    if not present:
        return None
    if len(present) < len(TARGET_COLUMNS):
        raise DataFormatError(f"{path}: has {present[0]} without its partner; give both of {', '.join(TARGET_COLUMNS)}")
    table = pq.read_table(path, columns=list(TARGET_COLUMNS))
    columns = []
    for name in TARGET_COLUMNS:
        column = table.column(name)
        if not pa.types.is_floating(column.type) or column.null_count:
            raise DataFormatError(f"{path}: {name} must be probabilities (floats, none missing), got {column.type}")
        values = column.to_numpy()
        if not ((values >= 0) & (values <= 1)).all():
            raise DataFormatError(f"{path}: {name} holds values outside [0, 1]; give probabilities, not scores")
        columns.append(values.tolist())
    return columns[0], columns[1]


def read_pair_nouns(path: Path) -> list[str]:
    """Every noun of a pairs file (subjects and objects, attested and negative), sorted."""
    table = read_pairs(path)
    columns = ("subject", "object", "negative_subject", "negative_object")
    return sorted({noun for name in columns for noun in table.column(name).unique().to_pylist()})

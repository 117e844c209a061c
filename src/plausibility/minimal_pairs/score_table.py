"""Per-text scores as a CSV with columns `id,logprob`: read instead of running a model, or written after one;
and the per-token (or per-word) values they are made of, written for inspection."""

import csv
import math
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from plausibility.atomic import atomic_write
from plausibility.errors import DataFormatError

COLUMNS = ("id", "logprob")


def _read_rows(reader: csv.DictReader, path: Path) -> dict[str, float]:
    """The rows of an open scores CSV, checked one by one (errors name `path` and the line)."""
    scores: dict[str, float] = {}
    if reader.fieldnames is None:
        raise DataFormatError(f"{path}: the scores file is empty; it needs a header `id,logprob` and one row per text")
    missing = [column for column in COLUMNS if column not in reader.fieldnames]
    if missing:
        raise DataFormatError(f"{path}: missing column(s) {', '.join(missing)}; the header must be `id,logprob`")
    for number, row in enumerate(reader, start=2):
        text_id = row["id"]
        if text_id in scores:
            raise DataFormatError(f"{path} line {number}: id {text_id!r} occurs twice; keep one row per text")
        try:
            value = float(row["logprob"])
        except (TypeError, ValueError):
            raise DataFormatError(f"{path} line {number}: logprob {row['logprob']!r} is not a number") from None
        if math.isnan(value):
            raise DataFormatError(f"{path} line {number}: logprob is NaN; score that text again")
        scores[text_id] = value
    return scores


def read_scores(path: Path) -> dict[str, float]:
    """Text id -> score; fails on a missing file or column, an empty file, a duplicate id or a non-number."""
    if not path.is_file():
        raise DataFormatError(f"{path}: no such scores file; give a CSV with columns id,logprob")
    # utf-8-sig: a byte-order mark (spreadsheet exports write one) would otherwise join the `id` column name.
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            scores = _read_rows(csv.DictReader(handle), path)
    except UnicodeDecodeError as error:
        raise DataFormatError(f"{path}: not UTF-8 text (byte {error.start}); save the scores file as UTF-8") from error
    except csv.Error as error:
        raise DataFormatError(f"{path}: unreadable as CSV ({error}); give a CSV with columns id,logprob") from error
    if not scores:
        raise DataFormatError(f"{path}: the scores file has a header but no rows; add one row per text")
    return scores


def write_scores(scores: Mapping[str, float], path: Path) -> None:
    """Write `id,logprob` rows atomically, at full float precision (`repr` round-trips)."""

    def write(handle: IO) -> None:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        writer.writerows((text_id, repr(float(value))) for text_id, value in scores.items())

    atomic_write(path, write)


TOKEN_COLUMNS = ("lm", "id", "position", "piece", "logprob")


def write_token_scores(pieces: Mapping[str, Mapping[str, list[tuple[str, float]]]], path: Path) -> None:
    """Write each scored token's (or word's) value as rows `lm,id,position,piece,logprob`, at full precision.

    Args:
        pieces: language model -> text id -> the text's (token or word, log-probability) in order.
    """

    def write(handle: IO) -> None:
        writer = csv.writer(handle)
        writer.writerow(TOKEN_COLUMNS)
        for lm, texts in pieces.items():
            for text_id, values in texts.items():
                writer.writerows((lm, text_id, i, piece, repr(float(v))) for i, (piece, v) in enumerate(values))

    atomic_write(path, write)

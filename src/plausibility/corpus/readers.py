"""Corpus files as streams of paragraphs: plain text, JSONL with a text field, WikiExtractor output."""

import gzip
import json
import lzma
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from plausibility.checksums import file_sha256
from plausibility.errors import DataFormatError, ResourceMissingError

Format = Literal["text", "jsonl", "wikiextractor"]
_FIX = "give UTF-8 text (.txt, .txt.gz, .txt.xz), JSONL with a text field, or WikiExtractor output"
_SNIFF_BYTES = 65536


@dataclass(frozen=True, slots=True)
class Source:
    """One input file, checked and fingerprinted before any parsing starts."""

    path: Path
    format: Format
    sha256: str
    jsonl_field: str = "text"


def _open_binary(path: Path) -> IO[bytes]:
    if path.name.endswith(".gz"):
        return gzip.open(path, "rb")
    if path.name.endswith(".xz"):
        return lzma.open(path, "rb")
    return path.open("rb")


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (".gz", ".xz"):
        name = name.removesuffix(suffix)
    return name


def _head(path: Path) -> str:
    """The first decoded characters of a file; binary or corrupt content raises naming the file."""
    try:
        with _open_binary(path) as stream:
            raw = stream.read(_SNIFF_BYTES)
    except PermissionError as error:
        raise ResourceMissingError(f"{path}: cannot read ({error.strerror}); check its permissions") from error
    except (OSError, EOFError, lzma.LZMAError) as error:
        raise DataFormatError(f"{path}: cannot decompress ({error}); {_FIX}") from error
    if b"\x00" in raw:
        raise DataFormatError(f"{path}: binary content (NUL bytes), not text; {_FIX}")
    # A multi-byte character may be cut at the end of the sniffed block; only the start must decode.
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(raw) - 4:
            raise DataFormatError(f"{path}: not UTF-8 text (byte {error.start}); {_FIX}") from error
        return raw[: error.start].decode("utf-8")


def inspect_source(path: Path, jsonl_field: str = "text") -> Source:
    """Check that `path` is a readable text corpus, detect its format and hash it."""
    if not path.is_file():
        raise ResourceMissingError(f"{path}: no such file; {_FIX}")
    head = _head(path)
    if _stem(path).endswith(".jsonl"):
        corpus_format: Format = "jsonl"
    elif head.lstrip().startswith("<doc "):
        corpus_format = "wikiextractor"
    else:
        corpus_format = "text"
    return Source(path=path, format=corpus_format, sha256=file_sha256(path), jsonl_field=jsonl_field)


def _lines(source: Source) -> Iterator[tuple[int, str]]:
    # Decoded line by line (not through a text wrapper) so an error names the exact line.
    number = 0
    try:
        with _open_binary(source.path) as raw:
            for number, line in enumerate(raw, start=1):
                yield number, line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DataFormatError(f"{source.path}:{number}: not UTF-8 text; {_FIX}") from error
    except (EOFError, lzma.LZMAError, gzip.BadGzipFile) as error:
        raise DataFormatError(f"{source.path}:{number + 1}: corrupt compressed data ({error})") from error


def _split(text: str) -> Iterator[str]:
    for paragraph in text.split("\n"):
        if paragraph := paragraph.strip():
            yield paragraph


def read_paragraphs(source: Source) -> Iterator[str]:
    """Non-empty paragraphs of `source` in file order; the parser splits them into sentences.

    WikiExtractor output: the `<doc ...>` and `</doc>` lines and each document's title line are skipped.
    JSONL: each line's text field, split at newlines.
    """
    in_document_title = False
    for number, line in _lines(source):
        if "\x00" in line:
            raise DataFormatError(f"{source.path}:{number}: binary content (NUL bytes), not text; {_FIX}")
        if source.format == "jsonl":
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataFormatError(f"{source.path}:{number}: not valid JSON ({error.msg})") from error
            text = record.get(source.jsonl_field) if isinstance(record, dict) else None
            if not isinstance(text, str):
                raise DataFormatError(
                    f"{source.path}:{number}: no string field {source.jsonl_field!r}; pass the right --jsonl-field"
                )
            yield from _split(text)
        elif source.format == "wikiextractor":
            stripped = line.strip()
            if stripped.startswith("<doc "):
                in_document_title = True
            elif stripped == "</doc>":
                in_document_title = False
            elif stripped:
                if in_document_title:
                    in_document_title = False
                else:
                    yield stripped
        else:
            yield from _split(line)

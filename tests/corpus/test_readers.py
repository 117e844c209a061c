import gzip
import json
import lzma
from pathlib import Path

import pytest

from plausibility.corpus.readers import inspect_source, read_paragraphs
from plausibility.errors import DataFormatError, ResourceMissingError

TEXT = "First paragraph. It has two sentences.\n\n  Second paragraph.  \n"


@pytest.mark.parametrize(
    ("name", "write"),
    [
        ("plain.txt", lambda path: path.write_text(TEXT)),
        ("packed.txt.gz", lambda path: path.write_bytes(gzip.compress(TEXT.encode()))),
        ("packed.txt.xz", lambda path: path.write_bytes(lzma.compress(TEXT.encode()))),
    ],
)
def test_plain_text_in_every_compression(tmp_path: Path, name: str, write: object) -> None:
    path = tmp_path / name
    write(path)
    source = inspect_source(path)
    assert source.format == "text"
    assert list(read_paragraphs(source)) == ["First paragraph. It has two sentences.", "Second paragraph."]


def test_jsonl_text_field_split_at_newlines(tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(json.dumps({"body": "One.\nTwo."}) + "\n\n" + json.dumps({"body": "Three."}) + "\n")
    source = inspect_source(path, jsonl_field="body")
    assert source.format == "jsonl"
    assert list(read_paragraphs(source)) == ["One.", "Two.", "Three."]


def test_jsonl_without_the_field_names_file_line_and_fix(tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(json.dumps({"text": "fine"}) + "\n" + json.dumps({"body": "x"}) + "\n")
    with pytest.raises(DataFormatError, match=r"docs\.jsonl:2: no string field 'text'; pass the right --jsonl-field"):
        list(read_paragraphs(inspect_source(path)))


def test_wikiextractor_drops_markup_and_titles(tmp_path: Path) -> None:
    path = tmp_path / "wiki_00"
    path.write_text(
        '<doc id="12" url="https://en.wikipedia.org/wiki?curid=12" title="Anarchism">\nAnarchism\n\n'
        "Anarchism is a political philosophy.\n\nIt rejects hierarchy.\n</doc>\n"
        '<doc id="25" title="Autism">\nAutism\nAutism is a disorder.\n</doc>\n'
    )
    source = inspect_source(path)
    assert source.format == "wikiextractor"
    assert list(read_paragraphs(source)) == [
        "Anarchism is a political philosophy.",
        "It rejects hierarchy.",
        "Autism is a disorder.",
    ]


def test_sources_are_fingerprinted(tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text("abc\n")
    # sha256 of the bytes "abc\n"
    assert inspect_source(path).sha256 == "edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb"


def test_missing_file_and_folder_are_unreadable(tmp_path: Path) -> None:
    with pytest.raises(ResourceMissingError, match=r"nowhere\.txt: no such file; give UTF-8 text"):
        inspect_source(tmp_path / "nowhere.txt")
    with pytest.raises(ResourceMissingError, match=r": no such file"):
        inspect_source(tmp_path)


def test_binary_and_non_utf8_and_corrupt_files(tmp_path: Path) -> None:
    binary = tmp_path / "image.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(DataFormatError, match=r"image\.txt: binary content \(NUL bytes\), not text"):
        inspect_source(binary)
    latin = tmp_path / "latin.txt"
    latin.write_bytes("caf\xe9 au lait, sans sucre\n".encode("latin-1"))
    with pytest.raises(DataFormatError, match=r"latin\.txt: not UTF-8 text \(byte 3\)"):
        inspect_source(latin)
    corrupt = tmp_path / "corrupt.txt.xz"
    corrupt.write_bytes(b"this is not xz data at all")
    with pytest.raises(DataFormatError, match=r"corrupt\.txt\.xz: cannot decompress"):
        inspect_source(corrupt)


def test_bad_bytes_past_the_sniffed_head_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "late.txt"
    path.write_bytes(b"good line\n" * 10000 + b"bad \xff line\n")
    source = inspect_source(path)
    with pytest.raises(DataFormatError, match=r"late\.txt:10001: not UTF-8 text"):
        list(read_paragraphs(source))

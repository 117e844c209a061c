"""The one table reader: every door (a scored file, the Ray engine, a judged set) reads a table alike."""

from pathlib import Path

import pandas as pd
import pytest

from plausibility.benchmarks.judged_set import read_judged_set
from plausibility.errors import DataFormatError
from plausibility.query.triple_files import read_triple_chunks
from plausibility.tables import read_rows, read_table

BOM = b"\xef\xbb\xbf"
WORDS = [["person", "eat", "apple"], ["rock", "eat", "sandwich"]]
NOTES = ['said "yes"', "one, two"]


def _written(tmp_path: Path, name: str, text: str) -> Path:
    """A file as a spreadsheet on Windows writes it: a byte-order mark and CRLF line ends."""
    path = tmp_path / name
    path.write_bytes(BOM + text.replace("\n", "\r\n").encode())
    return path


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("events.tsv", 'Subj\tPredicate\tObj\tlabel\tnote\nperson\teat\tapple\t1\tsaid "yes"\n'
                       "rock\teat\tsandwich\t0\tone, two\n"),
        ("events.csv", 'subject,verb,object,label,note\nperson,eat,apple,1,"said ""yes"""\n'
                       'rock,eat,sandwich,0,"one, two"\n'),
        ("events.jsonl", '{"subject": "person", "verb": "eat", "object": "apple", "label": 1, '
                         '"note": "said \\"yes\\""}\n'
                         '{"subject": "rock", "verb": "eat", "object": "sandwich", "label": 0, "note": "one, two"}\n'),
    ],
)  # fmt: skip
def test_quotes_crlf_and_a_byte_order_mark_read_alike_through_every_door(tmp_path: Path, name: str, text: str) -> None:
    path = _written(tmp_path, name, text)
    scored = pd.concat([chunk.rows for chunk in read_triple_chunks(path)], ignore_index=True)
    judged = read_judged_set(path).table
    for table in (scored, judged):
        assert table[["subject", "verb", "object"]].values.tolist() == WORDS
        assert table["note"].tolist() == NOTES
    assert judged["label"].tolist() == [1, 0]


def test_a_header_of_other_names_for_the_columns_is_no_event(tmp_path: Path) -> None:
    path = _written(tmp_path, "events.tsv", "subj\tpredicate\tobj\nperson\teat\tapple\n")
    assert [record for _, record, _ in read_rows(path)] == [{"subject": "person", "verb": "eat", "object": "apple"}]


def test_a_header_naming_only_some_triple_columns_is_an_error_naming_the_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "events.tsv"
    path.write_text("subject\tverb\tthing\nperson\teat\tapple\n")
    with pytest.raises(DataFormatError, match=r"header row \(subject, verb, thing\) names no object column; name"):
        list(read_rows(path))


def test_four_columns_without_a_header_say_which_columns_work(tmp_path: Path) -> None:
    path = tmp_path / "events.tsv"
    path.write_text("person\teat\tapple\t1\n")
    ((_, record, reason),) = read_rows(path)
    assert record is None
    assert (
        reason
        == "has 4 columns, not 3 (subject verb object); a header row naming subject, verb and object allows others"
    )
    with pytest.raises(DataFormatError, match=r"events.tsv line 1: has 4 columns, not 3"):
        read_table(path)


def test_a_header_naming_a_column_twice_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "events.csv"
    path.write_text("subject,verb,object,obj\na,b,c,d\n")
    with pytest.raises(DataFormatError, match="names object twice"):
        list(read_rows(path))

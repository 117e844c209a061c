import json
from pathlib import Path

import pandas as pd
import pytest

from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.query.triple_files import InvalidLine, read_triple_chunks
from plausibility.tables import TableWriter

ALLOWS_OTHERS = "; a header row naming subject, verb and object allows others"


def _read_all(path: Path, chunk_size: int = 2) -> tuple[pd.DataFrame, list[InvalidLine]]:
    chunks = list(read_triple_chunks(path, chunk_size))
    return pd.concat([c.rows for c in chunks], ignore_index=True), [i for c in chunks for i in c.invalid]


def test_tsv_with_header_keeps_extra_columns_and_order(tmp_path: Path) -> None:
    table = tmp_path / "in.tsv"
    table.write_text("id\tsubject\tverb\tobject\n7\tPerson\tbreathe\tair\n3\tdog\tchase\tcat\n9\tfish\tfly\tkite\n")
    rows, invalid = _read_all(table)
    assert invalid == []
    assert list(rows.columns) == ["subject", "verb", "object", "id"]
    assert rows.to_dict("records") == [
        {"subject": "person", "verb": "breathe", "object": "air", "id": "7"},
        {"subject": "dog", "verb": "chase", "object": "cat", "id": "3"},
        {"subject": "fish", "verb": "fly", "object": "kite", "id": "9"},
    ]


def test_headerless_csv_and_invalid_lines_are_numbered(tmp_path: Path) -> None:
    table = tmp_path / "in.csv"
    table.write_text("person,breathe,air\n\ndog,chase\ncat,eat big,fish\nbird,eat,seed\n")
    rows, invalid = _read_all(table)
    expected = [["person", "breathe", "air"], ["bird", "eat", "seed"]]
    assert rows[["subject", "verb", "object"]].values.tolist() == expected
    assert invalid == [
        InvalidLine(2, "empty line"),
        InvalidLine(3, "has 2 columns, not 3 (subject verb object)" + ALLOWS_OTHERS),
        InvalidLine(4, "verb 'eat big' is not a single word"),
    ]


def test_jsonl_reports_bad_json_and_missing_fields(tmp_path: Path) -> None:
    table = tmp_path / "in.jsonl"
    good = '{"subject": "person", "verb": "breathe", "object": "air", "n": 1}'
    table.write_text(f'{good}\n{{oops\n{{"subject": "x"}}\n[1]\n')
    rows, invalid = _read_all(table)
    assert rows.to_dict("records") == [{"subject": "person", "verb": "breathe", "object": "air", "n": 1}]
    assert [line.line for line in invalid] == [2, 3, 4]
    assert invalid[1].reason == "verb is missing or empty"
    assert invalid[2].reason == "not a JSON object"


@pytest.mark.parametrize("suffix", [".tsv", ".csv", ".jsonl", ".parquet"])
def test_writer_round_trip_in_every_format(tmp_path: Path, suffix: str) -> None:
    frame = pd.DataFrame({"subject": ["person", "dog"], "verb": ["breathe", "chase"], "object": ["air", "cat"]})
    path = tmp_path / f"out{suffix}"
    with TableWriter(path) as writer:
        writer.write(frame.iloc[:1])
        writer.write(frame.iloc[1:])
    rows, invalid = _read_all(path)
    assert invalid == []
    assert rows.to_dict("records") == frame.to_dict("records")
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_writer_leaves_nothing_when_interrupted(tmp_path: Path) -> None:
    path = tmp_path / "out.tsv"
    with pytest.raises(KeyboardInterrupt), TableWriter(path) as writer:
        writer.write(pd.DataFrame({"subject": ["a"], "verb": ["b"], "object": ["c"]}))
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_bad_inputs_fail_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(ResourceMissingError, match="no such file"):
        list(read_triple_chunks(tmp_path / "absent.tsv"))
    (tmp_path / "triples.txt").write_text("a b c\n")
    with pytest.raises(DataFormatError, match=r"unknown table format '\.txt'; use \.tsv, \.csv, \.jsonl, \.parquet"):
        list(read_triple_chunks(tmp_path / "triples.txt"))
    (tmp_path / "binary.tsv").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe\x00")
    with pytest.raises(DataFormatError, match="not UTF-8 text"):
        list(read_triple_chunks(tmp_path / "binary.tsv"))


def test_a_bom_and_a_capitalised_header_are_a_header_not_a_triple(tmp_path: Path) -> None:
    table = tmp_path / "in.tsv"
    table.write_bytes(b"\xef\xbb\xbfID\tSubject\tVerb\tObject\n1\tperson\tbreathe\tair\n")
    rows, invalid = _read_all(table)
    assert invalid == []
    assert rows.to_dict("records") == [{"subject": "person", "verb": "breathe", "object": "air", "ID": "1"}]
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_bytes(b'\xef\xbb\xbf{"subject": "person", "verb": "breathe", "object": "air"}\n')
    assert _read_all(jsonl)[0].to_dict("records") == [{"subject": "person", "verb": "breathe", "object": "air"}]


def test_jsonl_and_parquet_name_their_triple_columns_in_any_case_as_a_header_does(tmp_path: Path) -> None:
    rows = [{" Subject": "Person", "VERB": "breathe", "Object": "air", "Note": "x"}]
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text(json.dumps(rows[0]) + "\n")
    parquet = tmp_path / "in.parquet"
    pd.DataFrame(rows).to_parquet(parquet)
    for table in (jsonl, parquet):
        read, invalid = _read_all(table)
        assert invalid == []
        assert read.to_dict("records") == [{"subject": "person", "verb": "breathe", "object": "air", "Note": "x"}]


def test_tsv_reads_quotes_as_characters_while_csv_keeps_quoting(tmp_path: Path) -> None:
    tsv = tmp_path / "in.tsv"
    tsv.write_text('subject\tverb\tobject\n"person\tbreathe\tair\nchild\teat\tapple\n')
    rows, invalid = _read_all(tsv)
    assert invalid == []
    assert rows.values.tolist() == [['"person', "breathe", "air"], ["child", "eat", "apple"]]
    csv_file = tmp_path / "in.csv"
    csv_file.write_text('subject,verb,object,note\nperson,breathe,air,"a, b"\n')
    assert _read_all(csv_file)[0]["note"].tolist() == ["a, b"]


def test_tsv_output_keeps_quotes_as_written(tmp_path: Path) -> None:
    frame = pd.DataFrame({"subject": ['"person'], "verb": ["breathe"], "object": ["air"]})
    with TableWriter(tmp_path / "out.tsv") as writer:
        writer.write(frame)
    assert (tmp_path / "out.tsv").read_text() == 'subject\tverb\tobject\n"person\tbreathe\tair\n'


def test_a_huge_field_is_one_line_error_naming_the_line(tmp_path: Path) -> None:
    table = tmp_path / "in.csv"
    table.write_text("person,breathe,air\n" + "x" * 5_000_000 + ",eat,apple\n")
    with pytest.raises(DataFormatError) as error:
        _read_all(table)
    assert str(error.value) == f"{table} line 2: a field is longer than 131072 characters; is this a table of events?"


def test_jsonl_output_keeps_full_float_precision(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {"subject": ["a", "d"], "verb": ["b", "e"], "object": ["c", "f"], "p": [2.583629503395408e-07, 4e-12]}
    )
    with TableWriter(tmp_path / "out.jsonl") as writer:
        writer.write(frame)
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert lines == [
        '{"subject": "a", "verb": "b", "object": "c", "p": 2.583629503395408e-07}',
        '{"subject": "d", "verb": "e", "object": "f", "p": 4e-12}',
    ]


def test_jsonl_output_writes_nan_as_null_and_timestamps_as_text(tmp_path: Path) -> None:
    frame = pd.DataFrame(
        {"subject": ["a"], "verb": ["b"], "object": ["c"], "p": [float("nan")], "t": [pd.Timestamp("2024-01-02")]}
    )
    with TableWriter(tmp_path / "out.jsonl") as writer:
        writer.write(frame)
    assert (tmp_path / "out.jsonl").read_text() == (
        '{"subject": "a", "verb": "b", "object": "c", "p": null, "t": "2024-01-02 00:00:00"}\n'
    )

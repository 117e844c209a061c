"""Judged sets from files: the figures their columns allow, partial events, groups, and one-line errors."""

from pathlib import Path

import pytest

from plausibility.benchmarks.judged_set import read_judged_set
from plausibility.benchmarks.registry import judged_sets, named_set
from plausibility.errors import DataFormatError, ResourceMissingError, UnknownNameError


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_kind_is_read_from_the_columns(fixtures: Path) -> None:
    labelled = read_judged_set(fixtures / "judged" / "labelled.tsv")
    assert (labelled.name, labelled.split, labelled.kinds, len(labelled.table)) == ("labelled", "all", ("label",), 6)
    assert labelled.table["label"].tolist() == [1, 1, 0, 1, 0, 0]
    rated = read_judged_set(fixtures / "judged" / "rated.csv")
    assert rated.kinds == ("rating",) and rated.table["rating"].tolist() == [4.5, 4.0, 1.0, 3.5, 2.0]
    # partial events: an empty subject or object is kept empty, to be filled when scored
    assert rated.table[["subject", "object"]].values.tolist()[3:] == [["", "bread"], ["person", ""]]
    assert read_judged_set(fixtures / "judged" / "pairs.jsonl").kinds == ("pairs",)


def test_groups_split_by_a_column_and_an_unknown_one_lists_the_others(fixtures: Path) -> None:
    labelled = read_judged_set(fixtures / "judged" / "labelled.tsv")
    groups = labelled.groups("relation")
    assert [(value, subset.table["subject"].tolist()) for value, subset in groups] == [
        ("food", ["person", "dog", "stone"]),
        ("thing", ["person", "book", "child"]),
    ]
    with pytest.raises(
        DataFormatError, match=r"^labelled: no column 'topic' to split by; its other columns: relation$"
    ):
        labelled.groups("topic")


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("none.tsv", "subject\tverb\tobject\ncat\teat\tfish\n", r"no judgement column; add label \(0/1: AUC\), rating"),
        (
            "label.tsv",
            "subject\tverb\tobject\tlabel\ncat\teat\tfish\t1\ndog\teat\tfish\t2\n",
            r"label must be 0 or 1, not so in rows 2$",
        ),
        (
            "rating.csv",
            "subject,verb,object,rating\ncat,eat,fish,high\n",
            r"rating must be a number, not so in rows 1$",
        ),
        (
            "verbless.tsv",
            "subject\tverb\tobject\tlabel\ncat\t\tfish\t1\n",
            r"rows 1 have no verb; every event needs one$",
        ),
        ("empty.tsv", "subject\tverb\tobject\tlabel\n\teat\t\t1\n", r"rows 1 have neither subject nor object"),
        ("words.tsv", "noun\tverb\tobject\tlabel\ncat\teat\tfish\t1\n", r"label\) names no subject"),
        (
            "pairs.tsv",
            "pair\tsubject\tverb\tobject\tlabel\np\tcat\teat\tfish\t1\np\tdog\teat\tfish\t1\nq\tcat\teat\tmouse\t0\n",
            r"pair 'p' \(rows 1, 2\) must hold exactly one typical \(label 1\) and one atypical \(label 0\) event$",
        ),
        ("table.xlsx", "", r"unknown table format '.xlsx'; use .tsv, .csv, .jsonl, .parquet$"),
    ],
)
def test_a_malformed_file_is_one_line_naming_its_rows(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = _write(tmp_path, name, text)
    with pytest.raises(DataFormatError, match=message) as raised:
        read_judged_set(path)
    assert str(raised.value).startswith(f"{path}: ") and "\n" not in str(raised.value)


def test_a_missing_file_and_an_unknown_benchmark_say_what_is_known(tmp_path: Path) -> None:
    with pytest.raises(ResourceMissingError, match="no such file"):
        read_judged_set(tmp_path / "nothing.tsv")
    known = "20q, pap, pep3k, plain, reversals"
    with pytest.raises(UnknownNameError, match=rf"^unknown benchmark 'pep3000'; known: {known}$"):
        named_set("pep3000", "test")


def test_named_halves_come_first_then_each_file_used_whole(fixtures: Path, tmp_path: Path) -> None:
    copy = tmp_path / "pep3k.tsv"  # a file named like a benchmark keeps its path as its name
    copy.write_text((fixtures / "judged" / "labelled.tsv").read_text())
    sets = judged_sets(["pep3k"], ["test"], [fixtures / "judged" / "rated.csv", copy])
    assert [(s.name, s.split) for s in sets] == [("pep3k", "test"), ("rated", "all"), (str(copy), "all")]
    assert len(sets[0].table) == 1531 and sets[0].kinds == ("label",)

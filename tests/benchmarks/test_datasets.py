from pathlib import Path

import pytest

from plausibility.benchmarks.datasets import load_plausibility_set, read_labelled_triples
from plausibility.errors import DataFormatError, ResourceMissingError, UnknownNameError
from plausibility.triple import Triple


@pytest.mark.parametrize(
    ("name", "split", "rows", "positives"),
    [
        ("pep3k", "valid", 1531, 769),
        ("pep3k", "test", 1531, 759),
        ("20q", "valid", 2548, 1274),
        ("20q", "test", 2548, 1274),
    ],
)
def test_vendored_sets_have_the_published_sizes_and_balance(name: str, split: str, rows: int, positives: int) -> None:
    events = load_plausibility_set(name, split)
    assert len(events) == rows
    assert sum(event.label for event in events) == positives


def test_first_event_is_read_exactly() -> None:
    first = load_plausibility_set("pep3k", "valid")[0]
    assert first.triple == Triple("student", "climb", "ship")
    assert first.label == 1


def test_wrong_column_count_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("1\tperson\tbreathe\tair\n0\tdog\tbark\n")
    with pytest.raises(DataFormatError, match=r"bad\.tsv:2: expected 4 tab-separated columns"):
        read_labelled_triples(bad)


def test_label_outside_zero_one_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "labels.tsv"
    bad.write_text("2\tperson\tbreathe\tair\n")
    with pytest.raises(DataFormatError, match=r"labels\.tsv:1: label must be 0 or 1, got '2'"):
        read_labelled_triples(bad)


def test_empty_file_and_missing_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.tsv"
    empty.write_text("")
    with pytest.raises(DataFormatError, match="empty"):
        read_labelled_triples(empty)
    with pytest.raises(ResourceMissingError, match="no such file"):
        read_labelled_triples(tmp_path / "absent.tsv")


def test_unknown_dataset_lists_known_names() -> None:
    with pytest.raises(UnknownNameError, match="unknown dataset 'pep4k'; known: 20q, pep3k"):
        load_plausibility_set("pep4k", "test")

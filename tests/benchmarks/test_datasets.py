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


def test_pap_is_read_as_lemmas_with_its_three_judgements_by_abstractness() -> None:
    from plausibility.benchmarks.registry import named_set

    pap = named_set("pap", "test")
    assert len(pap.table) == 1733 and pap.kinds == ("label", "rating", "agreed_label")
    assert pap.by == ("abstractness_combination",) and pap.table["abstractness_combination"].nunique() == 27
    first = pap.table.iloc[0]
    assert (first["subject"], first["verb"], first["object"], first["event"]) == (
        "ability",
        "mean",
        "mobility",
        "ability means mobility",
    )
    assert (first["label"], first["rating"], first["agreed_label"]) == (1, 4.3, 1)  # ratings 2,5,4,5,5,2,5,5,5,5
    assert pap.table["label"].sum() == 862 and pap.table["agreed_label"].isna().sum() == 745  # PAP's own counts
    with pytest.raises(UnknownNameError, match="split of pap"):
        named_set("pap", "valid")  # a test set only: nothing is chosen on it


@pytest.mark.parametrize("split", ["valid", "test"])
def test_the_plain_halves_are_balanced_by_kind(split: str) -> None:
    from plausibility.benchmarks.registry import named_set

    plain = named_set("plain", split)
    table = plain.table
    assert len(table) == 160 and table["label"].sum() == 80 and plain.accuracy and plain.by == ("kind",)
    kinds = table.groupby("kind")["label"].agg(["count", "mean"])
    assert kinds.to_dict("index") == {
        "animacy": {"count": 25, "mean": 0.0},
        "atypical": {"count": 35, "mean": 1.0},
        "instrument_material": {"count": 17, "mean": 0.0},
        "physical": {"count": 18, "mean": 0.0},
        "role_reversal": {"count": 20, "mean": 0.0},
        "typical": {"count": 45, "mean": 1.0},
    }
    reversed_pairs = table[table["reversal_of"] != ""].groupby("reversal_of")
    for _, pair in reversed_pairs:  # each reversal beside the event it reverses
        assert len(pair) == 2 and sorted(pair["label"]) == [0, 1]
        assert pair.iloc[0][["subject", "object"]].tolist() == pair.iloc[1][["object", "subject"]].tolist()


def test_role_reversals_pair_an_attested_animate_event_with_its_reversal() -> None:
    from plausibility.benchmarks.registry import named_set

    halves = [named_set("reversals", split) for split in ("valid", "test")]
    assert [len(half.table) // 2 for half in halves] == [890, 865] and halves[0].kinds == ("pairs",)
    assert not set(halves[0].table["pair"]) & set(halves[1].table["pair"])
    first = halves[0].table.iloc[:2]
    assert first[["subject", "verb", "object", "label"]].values.tolist() == [
        ["activist", "bring", "rider", 1],
        ["rider", "bring", "activist", 0],
    ]

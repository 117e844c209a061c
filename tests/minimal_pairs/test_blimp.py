"""BLiMP as a benchmark: a folder of per-UID files, results overall, per field and per UID, and selections."""

import hashlib
from pathlib import Path

import pytest

from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.minimal_pairs.readers import data_files, data_sha256
from plausibility.minimal_pairs.suite_config import load_suite
from plausibility.minimal_pairs.suite_report import _panels, accuracy_figure, group_name
from plausibility.minimal_pairs.suite_runner import load_items, run_suite
from plausibility.resources.paths import data_dir

# anaphor_gender_agreement (morphology): 2 pairs; determiner_noun_agreement_1 (morphology, gzipped): 4 pairs;
# npi_present_1 (semantics): 2 pairs. Every good sentence scores -1 and every bad one -2, except that
# anaphor pair 2's good sentence scores -3 (fails) and npi pair 2's good one ties its bad one (ties fail).
UIDS = ("anaphor_gender_agreement", "determiner_noun_agreement_1", "npi_present_1")
PAIRS = {"anaphor_gender_agreement": 2, "determiner_noun_agreement_1": 4, "npi_present_1": 2}


@pytest.fixture
def three(fixtures: Path) -> Path:
    return fixtures / "minimal_pairs" / "blimp_three"


def fixture_scores() -> dict[str, float]:
    scores = {
        f"{uid}_{line}_{role}": -1.0 if role == "good" else -2.0
        for uid, pairs in PAIRS.items()
        for line in range(1, pairs + 1)
        for role in ("good", "bad")
    }
    scores["anaphor_gender_agreement_2_good"] = -3.0
    scores["npi_present_1_2_good"] = -2.0
    return scores


def figures(result) -> list[tuple[str, int, float]]:
    return [(group_name(row.group), row.n_items, row.accuracy) for row in result.results]


def test_a_folder_is_read_file_by_file_in_name_order(three: Path):
    assert [path.name for path in data_files(three)] == [
        "anaphor_gender_agreement.jsonl", "determiner_noun_agreement_1.jsonl.gz", "npi_present_1.jsonl"
    ]  # fmt: skip
    items = load_items(load_suite("blimp", data=three))
    assert [item.key for item in items] == [f"{uid}_{line}" for uid, n in PAIRS.items() for line in range(1, n + 1)]
    assert items[2].labels == {"UID": "determiner_noun_agreement_1", "field": "morphology"}
    assert items[2].roles["good"].continuation == "Raymond is selling this sketch."


def test_accuracy_overall_then_per_field_then_per_uid(three: Path):
    result, used = run_suite(load_suite("blimp", data=three), scores=fixture_scores())
    assert len(used.scores) == 16
    assert figures(result) == [
        ("all", 8, 0.75),
        ("field=morphology", 6, 5 / 6),
        ("field=semantics", 2, 0.5),
        ("UID=anaphor_gender_agreement", 2, 0.5),
        ("UID=determiner_noun_agreement_1", 4, 1.0),
        ("UID=npi_present_1", 2, 0.5),
    ]


def test_selecting_uids_and_fields(three: Path):
    suite = load_suite("blimp", data=three)
    by_uid, used = run_suite(
        suite, scores=fixture_scores(), where={"UID": ["npi_present_1", "anaphor_gender_agreement"]}
    )
    assert figures(by_uid) == [
        ("all", 4, 0.5),
        ("field=morphology", 2, 0.5),
        ("field=semantics", 2, 0.5),
        ("UID=anaphor_gender_agreement", 2, 0.5),
        ("UID=npi_present_1", 2, 0.5),
    ]
    assert len(used.scores) == 8
    both, _ = run_suite(
        suite, scores=fixture_scores(), where={"field": ["morphology"], "UID": ["determiner_noun_agreement_1"]}
    )
    assert figures(both) == [
        ("all", 4, 1.0), ("field=morphology", 4, 1.0), ("UID=determiner_noun_agreement_1", 4, 1.0)
    ]  # fmt: skip


def test_an_unknown_uid_or_label_is_refused(three: Path, fixtures: Path):
    suite = load_suite("blimp", data=three)
    with pytest.raises(
        UnknownNameError,
        match=r"^unknown UID 'npi_present_2'; known: anaphor_gender_agreement, determiner_noun_agreement_1, "
        r"npi_present_1; did you mean 'npi_present_1'\?$",
    ):
        load_items(suite, where={"UID": ["npi_present_1", "npi_present_2"]})
    with pytest.raises(UnknownNameError, match=r"^unknown field 'syntax'; known: morphology, semantics$"):
        load_items(suite, where={"field": ["syntax"]})
    with pytest.raises(
        DataFormatError,
        match=r"^no item has UID in npi_present_1; field in morphology at once; select values that occur together$",
    ):
        load_items(suite, where={"UID": ["npi_present_1"], "field": ["morphology"]})
    with pytest.raises(
        DataFormatError, match=r"^the selection names label 'UID', which the items do not carry; labels: family$"
    ):
        lieder = load_suite("lieder", data=fixtures / "minimal_pairs" / "lieder_two_items.jsonl")
        load_items(lieder, where={"UID": ["adjunct_island"]})


def test_a_folder_without_json_lines_is_refused(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("nothing to score\n")
    with pytest.raises(DataFormatError, match=r"the folder holds no .jsonl or .jsonl.gz file; give JSON-lines"):
        load_items(load_suite("blimp", data=tmp_path))


def test_the_same_id_in_two_files_is_refused(tmp_path: Path, three: Path):
    line = (three / "npi_present_1.jsonl").read_text().splitlines()[0]
    (tmp_path / "a.jsonl").write_text(line + "\n")
    (tmp_path / "b.jsonl").write_text(line + "\n")
    with pytest.raises(DataFormatError, match=r"text id 'npi_present_1_1_good' occurs twice; ids must be unique"):
        load_items(load_suite("blimp", data=tmp_path))


def test_a_folder_digest_is_that_of_its_sha256sum_listing(three: Path):
    listing = "".join(
        f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}\n" for path in sorted(three.iterdir())
    )
    assert data_sha256(three) == hashlib.sha256(listing.encode()).hexdigest()
    single = three / "npi_present_1.jsonl"
    assert data_sha256(single) == hashlib.sha256(single.read_bytes()).hexdigest()


def test_the_plot_has_a_bar_per_field_and_per_uid_and_the_overall_one_once(three: Path):
    result, _ = run_suite(load_suite("blimp", data=three), scores=fixture_scores())
    panels = [(title, names) for title, _, names in _panels(result, per_group=True)]
    assert panels == [
        ("good>bad per field", ["all", "morphology", "semantics"]),
        ("good>bad per UID", list(UIDS)),
    ]
    assert [title for title, _, _ in _panels(result, per_group=False)] == ["all items"]
    figure = accuracy_figure({"lm": result}, per_group=True)
    bars = [len(axis.patches) for axis in figure.axes]
    assert bars == [3, len(UIDS)]
    (legend,) = figure.legends  # one legend for the figure, above the panels
    assert [text.get_text() for text in legend.get_texts()] == [
        "accuracy: share of items with good > bad, 95% CI",
        "chance (0.5)",
    ]


def test_the_vendored_benchmark_is_the_default():
    suite = load_suite("blimp")
    assert suite.data == data_dir() / "minimal_pairs" / "blimp"
    assert suite.per_group
    assert len(data_files(suite.data)) == 67
    items = load_items(suite)
    assert len(items) == 67_000
    uids_per_field: dict[str, set[str]] = {}
    for item in items:
        uids_per_field.setdefault(item.labels["field"], set()).add(item.labels["UID"])
    # principle_A_case_2's "syntax/semantics" is counted with the other syntax_semantics paradigms
    assert {field: len(uids) for field, uids in uids_per_field.items()} == {
        "morphology": 18, "semantics": 9, "syntax": 26, "syntax_semantics": 14
    }  # fmt: skip
    assert "principle_A_case_2" in uids_per_field["syntax_semantics"]
    (first, *_) = load_items(suite, where={"UID": ["adjunct_island"]})
    assert first.roles["good"].id == "adjunct_island_1_good"
    assert first.roles["bad"].continuation == "Who should Derek hug Richard after shocking?"

import csv
import json
from pathlib import Path

import pytest

from plausibility.cli import main
from plausibility.minimal_pairs.score_table import read_scores, write_scores

BLIMP_THREE = str(Path(__file__).parent.parent / "fixtures" / "minimal_pairs" / "blimp_three")


def test_pairs_from_a_scores_file_writes_every_report(tmp_path: Path, fixtures: Path, capsys: pytest.CaptureFixture):
    data = fixtures / "minimal_pairs" / "lieder_two_items.jsonl"
    # Singular continuations score -1, all others -2: sg beats pl, and same-number comparisons tie (fail).
    ids = [json.loads(line)["id"] for line in data.read_text().splitlines()]
    roles = {text_id: -1.0 if text_id.endswith("_sref") else -2.0 for text_id in ids}
    write_scores(roles, tmp_path / "scores.csv")
    output = tmp_path / "report"
    scores = str(tmp_path / "scores.csv")
    code = main(["pairs", "lieder", "--data", str(data), "--scores", scores, "--output", str(output),
                 "--dump-scores", str(output / "dumped.csv")])  # fmt: skip
    assert code == 0
    assert sorted(path.name for path in output.iterdir()) == [
        "accuracy.png", "config.yaml", "dumped.csv", "results.csv", "summary.json"
    ]  # fmt: skip
    assert read_scores(output / "dumped.csv") == roles
    rows = list(csv.DictReader((output / "results.csv").open()))
    overall = {row["comparison"]: row for row in rows if row["group"] == "all"}
    assert (overall["p(sg|pos_neg)>p(pl|pos_neg)"]["n_items"], overall["p(sg|pos_neg)>p(pl|pos_neg)"]["accuracy"]) == (
        "2",
        "1.0",
    )
    assert overall["p(sg|pos_neg)>p(sg|pos_pos)"]["accuracy"] == "0.0"
    summary = json.loads((output / "summary.json").read_text())
    assert summary["comparisons"]["p(pl|pos_pos)>p(sg|pos_pos)"]["accuracy"] == 0.0
    assert (
        summary["comparisons"]["p(sg|neg_pos)>p(pl|neg_neg)"]["groups"]["family=affirmative_negation"]["accuracy"]
        == 1.0
    )
    assert summary["scores_file"] == str(tmp_path / "scores.csv")
    assert (output / "accuracy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "p(sg|pos_neg)>p(sg|pos_pos)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pairs", "lider"], "plausibility pairs: error: unknown suite 'lider'; known: anaphora_accessibility, blimp"),
        (
            ["pairs", "lieder", "--experiment", "three"],
            "unknown experiment of suite lieder 'three'; known: base, diff, two",
        ),
        (
            ["pairs", "blimp", "--data", BLIMP_THREE, "--uid", "npi_present_1,adjunct_island"],
            "unknown UID 'adjunct_island'; known: anaphor_gender_agreement, determiner_noun_agreement_1, npi_present_1",
        ),
        (
            ["pairs", "lieder", "--field", "syntax"],
            "the selection names label 'field', which the items do not carry; labels: family",
        ),
        (["pairs", "lieder", "--limit", "0"], "--limit must be a positive number of items, got 0"),
    ],
)
def test_pairs_bad_input_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture, argv, message):
    scores = tmp_path / "scores.csv"
    scores.write_text("id,logprob\nx,0\n")
    assert main([*argv, "--scores", str(scores), "--output", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert not (tmp_path / "out").exists()


def accuracies(report: Path) -> list[tuple[str, str, str]]:
    """(group, n_items, accuracy) of each row of a report's results.csv."""
    with (report / "results.csv").open() as handle:
        return [(row["group"], row["n_items"], row["accuracy"]) for row in csv.DictReader(handle)]


def test_pairs_blimp_reports_each_field_and_uid(tmp_path: Path, capsys: pytest.CaptureFixture):
    # Good sentences score -1 and bad ones -2, but anaphor_gender_agreement's second pair fails.
    ids = [f"{uid}_{line}" for uid, pairs in (("anaphor_gender_agreement", 2), ("determiner_noun_agreement_1", 4),
           ("npi_present_1", 2)) for line in range(1, pairs + 1)]  # fmt: skip
    scores = {f"{key}_good": -1.0 for key in ids} | {f"{key}_bad": -2.0 for key in ids}
    scores["anaphor_gender_agreement_2_good"] = -3.0
    write_scores(scores, tmp_path / "scores.csv")
    output = tmp_path / "report"
    argv = ["pairs", "blimp", "--data", BLIMP_THREE, "--scores", str(tmp_path / "scores.csv"), "--output"]
    assert main([*argv, str(output)]) == 0
    assert accuracies(output) == [
        ("all", "8", "0.875"),
        ("field=morphology", "6", "0.8333333333333334"),
        ("field=semantics", "2", "1.0"),
        ("UID=anaphor_gender_agreement", "2", "0.5"),
        ("UID=determiner_noun_agreement_1", "4", "1.0"),
        ("UID=npi_present_1", "2", "1.0"),
    ]
    summary = json.loads((output / "summary.json").read_text())  # to six decimals; results.csv keeps 5/6 whole
    assert summary["comparisons"]["good>bad"]["accuracy"] == 0.875
    assert {group: figures["accuracy"] for group, figures in summary["comparisons"]["good>bad"]["groups"].items()} == {
        "field=morphology": 0.833333, "field=semantics": 1.0, "UID=anaphor_gender_agreement": 0.5,
        "UID=determiner_noun_agreement_1": 1.0, "UID=npi_present_1": 1.0,
    }  # fmt: skip
    assert summary["where"] == {}
    table = capsys.readouterr().out
    assert "UID=determiner_noun_agreement_1" in table and "field=semantics" in table  # per group without a flag

    selected = tmp_path / "selected"
    assert main([*argv, str(selected), "--field", "morphology", "--uid", "anaphor_gender_agreement"]) == 0
    assert accuracies(selected) == [
        ("all", "2", "0.5"), ("field=morphology", "2", "0.5"), ("UID=anaphor_gender_agreement", "2", "0.5")
    ]  # fmt: skip
    summary = json.loads((selected / "summary.json").read_text())
    assert summary["where"] == {"UID": ["anaphor_gender_agreement"], "field": ["morphology"]}

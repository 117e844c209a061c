import csv
import json
from pathlib import Path

import pytest

from plausibility.cli import main
from plausibility.minimal_pairs.score_table import read_scores, write_scores


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
        (["pairs", "blimp"], "suite blimp has no data file; give one with --data PATH"),
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


@pytest.mark.skipif(__import__("torch").cuda.is_available(), reason="needs a machine without a CUDA GPU")
@pytest.mark.parametrize(
    ("device", "message"),
    [
        ("cuda", "--device cuda: no CUDA GPU is visible on this machine; use --device cpu (or leave it out)"),
        ("cuda:1", "--device cuda:1: no CUDA GPU is visible on this machine; use --device cpu (or leave it out)"),
        ("gpu0", "--device gpu0: not a torch device; use cpu, cuda, cuda:N or mps"),
    ],
)
def test_pairs_on_a_device_this_machine_lacks_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture, device: str, message: str
):
    code = main(["pairs", "lieder", "--device", device, "--lm", str(tmp_path), "--output", str(tmp_path / "out")])
    assert code == 1
    assert capsys.readouterr().err == f"plausibility pairs: error: {message}\n"
    assert not (tmp_path / "out").exists()

import json

import pytest

from plausibility.cli import main


@pytest.mark.slow
def test_consistency_writes_report_and_heatmaps(fixtures, tmp_path, capsys):
    output = tmp_path / "run"
    code = main(
        [
            "consistency",
            "--model",
            f"ngram:{fixtures / 'ngram_triples.tsv'}",
            "--benchmarks",
            "pep3k",
            "--splits",
            "test",
            "--heatmaps",
            "1",
            "--output",
            str(output),
        ]
    )
    assert code == 0
    report = json.loads((output / "consistency.json").read_text())
    assert report["events"] == len(report["grids"]) == 1531
    assert report["lexicon"] == {
        "vocabulary": "the bundled training nouns",
        "vocabulary_size": report["lexicon"]["vocabulary_size"],
        "min_depth": 4,
        "wsd": "mfs",
    }
    assert report["lexicon"]["vocabulary_size"] > 1000
    assert 0.0 <= report["ccd_scale_free"] <= 1.0
    assert report["probability_mapping"].startswith("exp of the log score")
    assert report["windows"] == sum(grid["windows"] for grid in report["grids"])
    assert report["unique_triples"] < report["grid_triples"]
    assert 0.0 <= report["ccd"] <= 1.0 and 0.0 <= report["ler"] <= 1.0
    measured = [grid for grid in report["grids"] if grid["ccd"] is not None]
    assert len(measured) == report["events_with_windows"]
    least = report["heatmaps"]["least_consistent"]
    assert len(least) == 1 and (output / least[0]).is_file()
    # exact: the heatmap's grid is the one with that largest value, read from the same JSON
    assert max(grid["ccd"] for grid in measured) == pytest.approx(
        next(grid["ccd"] for grid in measured if least[0].endswith(grid["event"].replace(" ", "-") + ".png"))
    )
    assert "CCΔ" in capsys.readouterr().out


def test_unknown_model_is_one_line_and_exit_1(tmp_path, capsys):
    code = main(
        ["consistency", "--model", "nope", "--benchmarks", "20q", "--splits", "valid", "--output", str(tmp_path)]
    )
    assert code == 1
    assert capsys.readouterr().err.startswith("plausibility consistency: error: unknown model 'nope'; known:")
    assert not (tmp_path / "consistency.json").exists()

"""Results printed to a pipe or a file are laid out whole: no table folded at 80 columns, no name cut."""

import pytest
from rich.table import Table

from plausibility.cli import main
from plausibility.cli.console import results_console
from plausibility.resources.paths import shipped_models
from plausibility.scorers.shipped import shipped_model

LONG = "accuracy_at_half_" * 8  # 136 characters: wider than 80 columns by itself


def test_a_piped_table_keeps_every_name_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    table = Table()
    for column in ("benchmark", "figure", "value"):
        table.add_column(column)
    table.add_row("plain", LONG, "0.569")
    results_console().print(table)
    (row,) = [line for line in capsys.readouterr().out.splitlines() if "plain" in line]
    assert [cell.strip() for cell in row.split("│")[1:4]] == ["plain", LONG, "0.569"]


def test_columns_still_sets_the_width_of_a_pipe(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    results_console().print(LONG)
    assert [len(line) for line in capsys.readouterr().out.splitlines()] == [60, 60, 16]


def test_plausibility_models_piped_prints_each_model_on_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["models"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name in shipped_models():
        (row,) = [line for line in lines if line.startswith(f"│ {name} ")]
        assert f" {shipped_model(name).summary} " in row  # the summary unfolded (80 columns folded it over lines)

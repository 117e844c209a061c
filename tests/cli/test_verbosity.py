"""`-q` and `-v`: one logging setup; results alone with -q, the libraries' chatter only with -v."""

import json
import logging
import warnings
from pathlib import Path

import pytest

from plausibility.cli import main, verbosity
from plausibility.minimal_pairs.score_table import write_scores


def _pairs(fixtures: Path, tmp_path: Path, *flags: str) -> list[str]:
    data = fixtures / "minimal_pairs" / "lieder_two_items.jsonl"
    ids = [json.loads(line)["id"] for line in data.read_text().splitlines()]
    write_scores({text_id: -1.0 for text_id in ids}, tmp_path / "scores.csv")
    output = tmp_path / "report"
    return [*flags, "pairs", "lieder", "--data", str(data), "--scores", str(tmp_path / "scores.csv"),
            "--output", str(output)]  # fmt: skip


@pytest.mark.parametrize("where", ["before", "after"])
def test_quiet_prints_nothing_but_results(
    where: str, fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _pairs(fixtures, tmp_path)
    argv = ["-q", *argv] if where == "before" else [*argv, "-q"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "p(sg|pos_neg)>p(pl|pos_neg)" in captured.out


def test_notes_go_to_stderr_by_default(fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_pairs(fixtures, tmp_path)) == 0
    assert capsys.readouterr().err == f"report written to {tmp_path / 'report'}\n"


def test_library_logs_and_warnings_show_only_when_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    for level, shown in ((0, False), (1, True), (0, False)):
        with warnings.catch_warnings(record=True) as caught:  # restores the filters configure sets
            verbosity.configure(level)
            logging.getLogger("lightning.pytorch.utilities.rank_zero").info("a tip")
            warnings.warn_explicit("deprecated", DeprecationWarning, "x.py", 1, module="transformers.x")
            warnings.warn_explicit("ours", UserWarning, "y.py", 1, module="plausibility.y")
        assert ("a tip" in capsys.readouterr().err) is shown
        assert [str(w.message) for w in caught] == (["deprecated", "ours"] if shown else ["ours"])


def test_pop_flags_takes_the_verbosity_out_of_lightnings_arguments() -> None:
    assert verbosity.pop_flags(["--config", "roberta", "-q", "--trainer.max_steps=2"]) == (
        -1,
        ["--config", "roberta", "--trainer.max_steps=2"],
    )

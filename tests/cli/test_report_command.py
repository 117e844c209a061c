"""What `plausibility report` measures without --model: the baselines, the shipped models, the installed opt-in LMs."""

from pathlib import Path

import pytest

from plausibility.cli.report import default_models
from plausibility.resources import causal_lm


def test_a_report_without_models_adds_the_shipped_folders_and_the_opt_in_lms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLAUSIBILITY_DATA", str(tmp_path))
    monkeypatch.setattr(causal_lm, "installed_opt_in_lms", lambda: [])
    assert [request.spec for request in default_models()] == ["ngram", "resnik", "zero-shot"]
    (tmp_path / "models" / "conceptmax").mkdir(parents=True)
    (tmp_path / "models" / "conceptmax" / "config.yaml").write_text("format: plausibility-model/1\n")
    (tmp_path / "models" / "roberta").mkdir()  # no config: not a shipped model, so not measured
    monkeypatch.setattr(causal_lm, "installed_opt_in_lms", lambda: ["gemma-3-270m"])
    assert [request.spec for request in default_models()] == [
        "ngram",
        "resnik",
        "zero-shot",
        "zero-shot:gemma-3-270m",
        "conceptmax",
    ]


def test_the_command_line_starts_without_the_evaluation_libraries() -> None:
    import subprocess
    import sys

    # A fresh interpreter: building every command's parser loads no scikit-learn, torch, Lightning or SciPy's
    # statistics (the minimal-pairs bootstrap), so `--help` answers in a fraction of a second.
    code = (
        "import sys; from plausibility.cli import build_parser; build_parser(); "
        "print(sorted(({m.split('.')[0] for m in sys.modules} | set(sys.modules)) "
        "& {'sklearn', 'torch', 'lightning', 'scipy.stats'}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"

"""The import-linter contracts in pyproject.toml hold for the package, and fail on a copy with a forbidden import."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
LINT = Path(sys.executable).parent / "lint-imports"


def _lint(source_root: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(source_root)}
    command = [str(LINT), str(ROOT / "pyproject.toml"), "--no-cache", "--no-logo"]
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)


def test_the_package_keeps_every_contract() -> None:
    result = _lint(ROOT / "src")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken." in result.stdout


def test_a_net_importing_the_evaluation_breaks_the_layers(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "src" / "plausibility", tmp_path / "plausibility", ignore=shutil.ignore_patterns("__pycache__")
    )
    checkpoint = tmp_path / "plausibility" / "models" / "checkpoint.py"
    checkpoint.write_text(
        checkpoint.read_text() + "\nfrom plausibility.evaluation import intervals  # noqa: E402, F401\n"
    )
    result = _lint(tmp_path)
    assert result.returncode == 1
    assert "plausibility.models is not allowed to import plausibility.evaluation" in result.stdout
    # the layers, the nets' own contract, and the cycle models -> evaluation -> scorers -> models it closes
    assert "Contracts: 1 kept, 3 broken." in result.stdout


def test_a_type_only_cycle_inside_a_package_breaks_the_acyclic_contract(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "src" / "plausibility", tmp_path / "plausibility", ignore=shutil.ignore_patterns("__pycache__")
    )
    metrics = tmp_path / "plausibility" / "evaluation" / "intervals.py"
    type_only = "from plausibility.evaluation.judged_scores import ScoredSet"
    metrics.write_text(
        metrics.read_text() + f"\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    {type_only}\n"
    )
    result = _lint(tmp_path)
    assert result.returncode == 1
    assert "No cycles are allowed in plausibility.evaluation." in result.stdout

"""The demo's quick training config: the shipped ConceptMax config with its budget, in its own run folder."""

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from plausibility.demo import DemoSettings, _quick_config
from plausibility.resources.paths import configs_dir


def test_quick_config_names_only_its_run_folder(tmp_path: Path) -> None:
    run_dir = tmp_path / "concept_max"
    config = yaml.safe_load(_quick_config(DemoSettings(steps=7, batch_size=4), run_dir).read_text())
    shipped = yaml.safe_load((configs_dir() / "models" / "concept_max.yaml").read_text())
    assert config["model"] == shipped["model"]
    assert config["trainer"]["max_steps"] == 7
    assert config["data"]["batch_size"] == 4
    assert config["trainer"]["default_root_dir"] == str(run_dir)
    # Every other output path follows the run folder: none is named in the config.
    assert "logger" not in config["trainer"]
    assert all("dirpath" not in callback["init_args"] for callback in config["trainer"]["callbacks"])


def test_lieder_table_escapes_the_bars_of_comparison_names() -> None:
    from plausibility.demo import _lieder_markdown
    from plausibility.minimal_pairs.evaluate import ComparisonResult

    row = ComparisonResult("p(sg|pos_neg)>p(sg|pos_pos)", "test", {}, {}, 48, 0.5, 0.4, 0.6, 0.84)
    assert _lieder_markdown([row]).splitlines()[-1] == "| p(sg\\|pos_neg)>p(sg\\|pos_pos) | 0.50 | 0.84 |"


def test_the_demo_explains_over_the_thesis_grids_by_default() -> None:
    from plausibility.cli import build_parser

    args = build_parser().parse_args(["demo"])
    assert DemoSettings().explain_min_depth == args.explain_min_depth == 4
    assert build_parser().parse_args(["demo", "--explain-min-depth", "6"]).explain_min_depth == 6


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_demo_ends_by_saying_how_to_run_plausibility(tmp_path: Path) -> None:
    # A stand-in environment: an interpreter and a `plausibility` that only say they ran, installed after
    # pyproject.toml changed, so that make neither builds it nor fetches WordNet.
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    for name in ("python", "plausibility"):
        (venv / "bin" / name).write_text(f'#!/bin/sh\necho "{name} $*"\n')
        (venv / "bin" / name).chmod(0o755)
    (venv / ".installed").touch()
    root = Path(__file__).parents[1]
    command = ["make", "-s", "-C", str(root), "demo", f"VENV={venv}", f"DEMO_OUTPUT={tmp_path / 'out'}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-5:-3] == [f"plausibility demo --output {tmp_path / 'out'}", ""]
    assert lines[-3:] == [
        f"The demo's outputs are in {tmp_path / 'out'}. plausibility is installed in {venv}: run it as",
        f"  {venv}/bin/plausibility --help",
        f"or activate the environment first (source {venv}/bin/activate), then run plausibility --help.",
    ]

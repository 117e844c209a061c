"""The files a newcomer reads first: every bench and tool script listed in its folder's README, and the license."""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


@pytest.mark.parametrize("folder", ["bench", "tools"])
def test_each_script_folder_readme_names_every_script(folder: str) -> None:
    readme = (ROOT / folder / "README.md").read_text(encoding="utf-8")
    # A script is named where a list item or a table row begins with it.
    named = set(re.findall(r"^(?:- |\| )`([\w.]+\.(?:py|sh))[ `]", readme, re.M))
    present = {path.name for path in (ROOT / folder).iterdir() if path.suffix in (".py", ".sh")}
    assert present - named == set()


def test_the_license_file_is_the_apache_license_pyproject_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["license"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert declared == "Apache-2.0"
    assert text.split()[:4] == ["Apache", "License", "Version", "2.0,"]
    assert "END OF TERMS AND CONDITIONS" in text
    assert "Copyright 2026 the plausibility authors" in text


@pytest.mark.parametrize("study", sorted(p.name for p in (ROOT / "experiments").iterdir() if p.is_dir()))
def test_each_study_is_one_run_py_that_answers_help_or_pins_its_scripts(study: str) -> None:
    import subprocess
    import sys

    folder = ROOT / "experiments" / study
    scripts = sorted(p.name for p in folder.rglob("*.py"))
    readme = (folder / "README.md").read_text(encoding="utf-8")
    if not scripts:  # a finished study whose scripts left the tree with the code they ran against
        assert re.search(r"pinned to commit [0-9a-f]{7}", readme)
        return
    assert scripts == ["run.py"]
    done = subprocess.run([sys.executable, str(folder / "run.py"), "--help"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.startswith("usage: run.py")

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

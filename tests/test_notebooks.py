"""Both notebooks run top to bottom on the offline defaults, on a small configuration."""

import os
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
SMALL = {"PLAUSIBILITY_NOTEBOOK_EVENTS": "3", "PLAUSIBILITY_NOTEBOOK_LIEDER_LIMIT": "2"}


@pytest.mark.integration
@pytest.mark.parametrize("name", ["01-consistency.ipynb", "02-discourse-minimal-pairs.ipynb"])
def test_notebook_runs_top_to_bottom(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The kernel is started as `python`: put this interpreter's environment first so it has the package.
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    for key, value in SMALL.items():
        monkeypatch.setenv(key, value)
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    errors = [output for cell in notebook.cells for output in cell.get("outputs", []) if output.output_type == "error"]
    assert errors == []

"""Every vendored file is listed in data/PROVENANCE.md with its current sha256."""

import hashlib
import re

from plausibility.resources.paths import data_dir


def test_every_data_file_has_a_matching_checksum() -> None:
    folder = data_dir()
    listed = dict(re.findall(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \|$", (folder / "PROVENANCE.md").read_text(), re.M))
    present = {
        path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in folder.rglob("*")
        if path.is_file() and path.name != "PROVENANCE.md"
    }
    assert present == listed


# A folder of the machine a file was made on: an absolute path under a user's or a build's usual roots.
_MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:root|home|work|tmp|Users|mnt|private)/")


def test_no_shipped_model_or_page_names_a_folder_of_the_machine_it_was_made_on() -> None:
    root = data_dir().parent
    shipped = [*(data_dir() / "models").rglob("*.md"), *(data_dir() / "models").rglob("*.yaml")]
    pages = [root / "README.md", *(root / "docs").rglob("*.md")] if (root / "docs").is_dir() else []
    found = [
        f"{path.name}: {match}" for path in [*shipped, *pages] for match in _MACHINE_PATH.findall(path.read_text())
    ]
    assert found == []


def test_a_recorded_path_leaves_the_machine_out_and_reads_back(tmp_path, monkeypatch) -> None:
    from plausibility.resources.paths import portable_path, recorded_path

    pairs = data_dir() / "training" / "pairs.parquet"
    assert portable_path(pairs) == "data/training/pairs.parquet"
    monkeypatch.chdir(tmp_path)  # an installed package runs from anywhere
    assert recorded_path("data/training/pairs.parquet") == pairs
    (tmp_path / "runs").mkdir()
    assert portable_path(tmp_path / "runs" / "last.ckpt") == "runs/last.ckpt"
    assert portable_path("/elsewhere/last.ckpt") == "/elsewhere/last.ckpt"  # outside both: as given

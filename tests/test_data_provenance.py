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

"""A scored table as a folder of Parquet parts and a manifest, so that a long run stopped halfway resumes.

Part `i` holds the rows of input chunk `i`, written whole or not at all; the manifest, rewritten after each
part, says which input, model and options the parts were scored with and which parts are finished. A rerun
of the same command reads the manifest, keeps the finished parts and scores the rest; a rerun with
another input, model or chunk size is refused rather than mixed in.
"""

import json
from pathlib import Path
from types import TracebackType

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from plausibility.atomic import atomic_path, atomic_write_text
from plausibility.errors import DataFormatError, OutputPathError
from plausibility.version import __version__

# Named with a leading `_`, so that Parquet readers (pandas, pyarrow, Spark) read the folder as one table.
MANIFEST = "_manifest.json"


def is_part_folder(output: Path) -> bool:
    """Whether `output` names a folder of parts: a path with no suffix (`scores`, not `scores.parquet`)."""
    return not output.suffix


def part_name(index: int) -> str:
    return f"part-{index:05d}.parquet"


def read_part_folder(folder: Path) -> pd.DataFrame:
    """A finished folder's parts as one table, in order."""
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    if not manifest.get("complete"):
        raise DataFormatError(f"{folder}: the run that writes it has not finished; rerun its command to complete it")
    return pd.concat([pd.read_parquet(folder / part_name(i)) for i in range(manifest["finished"])], ignore_index=True)


class PartFolder:
    """Writes the parts and the manifest of one run into `folder`, resuming what an interrupted run left."""

    def __init__(self, folder: Path, source: Path, chunk_size: int, identity: dict[str, object]) -> None:
        self.folder = folder
        stat = source.stat()
        self.identity = {
            "input": str(source.resolve()),
            "input_bytes": stat.st_size,
            "input_modified_ns": stat.st_mtime_ns,
            "chunk_size": chunk_size,
            **identity,
        }
        self._finished = 0

    def __enter__(self) -> "PartFolder":
        if self.folder.exists() and not self.folder.is_dir():
            raise OutputPathError(
                f"{self.folder}: is a file; a path with no suffix names the folder a run writes its parts into"
            )
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = self.folder / MANIFEST
        if manifest.is_file():
            written = json.loads(manifest.read_text(encoding="utf-8"))
            if written.get("identity") != self.identity:
                raise OutputPathError(
                    f"{self.folder}: holds parts of another run (input, model or options differ); give an empty "
                    "folder, or the command that wrote them"
                )
            self._finished = int(written["finished"])
        elif any(self.folder.iterdir()):
            raise OutputPathError(f"{self.folder}: folder is not empty and has no {MANIFEST}; give an empty folder")
        return self

    def finished(self, index: int) -> bool:
        """Whether part `index` was written by an earlier run of this command."""
        return index < self._finished

    def read(self, index: int) -> pd.DataFrame:
        return pd.read_parquet(self.folder / part_name(index))

    def write_part(self, index: int, rows: pd.DataFrame) -> None:
        """Write part `index` (all at once), then record it in the manifest."""
        if index != self._finished:
            raise ValueError(f"part {index} written out of order (next is {self._finished})")
        with atomic_path(self.folder / part_name(index)) as temporary:
            pq.write_table(pa.Table.from_pandas(rows, preserve_index=False), temporary)
        self._finished += 1
        self._write_manifest(complete=False)

    def complete(self) -> None:
        self._write_manifest(complete=True)

    def _write_manifest(self, complete: bool) -> None:
        content = {
            "identity": self.identity,
            "plausibility_version": __version__,
            "finished": self._finished,
            "complete": complete,
        }
        atomic_write_text(self.folder / MANIFEST, json.dumps(content, indent=1) + "\n")

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        return None

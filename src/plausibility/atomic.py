"""Writing a file all at once: into a temporary sibling, renamed into place, so nothing is half-written."""

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside `path`, renamed onto it when the block succeeds and removed when it fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, staging = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    try:
        yield Path(staging)
        os.replace(staging, path)
    except BaseException:
        Path(staging).unlink(missing_ok=True)
        raise


def atomic_write(path: Path, write: Callable[[IO], None], binary: bool = False) -> None:
    """Call `write` on an open handle (UTF-8 text, or bytes with `binary`) and put the result at `path`."""
    with atomic_path(path) as staging:
        mode = "wb" if binary else "w"
        with staging.open(mode, **({} if binary else {"newline": "", "encoding": "utf-8"})) as handle:
            write(handle)


def atomic_write_text(path: Path, text: str) -> None:
    """Put `text` (UTF-8) at `path` all at once."""
    atomic_write(path, lambda handle: handle.write(text))

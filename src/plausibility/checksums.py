"""Content hashes of files and folders: what manifests, model cards and cache keys record of their inputs."""

import hashlib
from functools import cache
from pathlib import Path


@cache
def _digest(path: Path, size: int, modified_ns: int) -> str:
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def file_sha256(path: Path) -> str:
    """The hex SHA-256 of a file's bytes; read once per process while its size and modification time stay."""
    stat = path.stat()
    return _digest(path.resolve(), stat.st_size, stat.st_mtime_ns)


def tree_sha256(path: Path) -> str:
    """A file's SHA-256, or a folder's: that of its `sha256sum`-style listing of every file below it, sorted."""
    if path.is_file():
        return file_sha256(path)
    files = sorted(file for file in path.rglob("*") if file.is_file())
    listing = "".join(f"{file_sha256(file)}  {file.relative_to(path).as_posix()}\n" for file in files)
    return hashlib.sha256(listing.encode()).hexdigest()


def tree_stamps(path: Path) -> tuple[tuple[str, int, int], ...]:
    """The size and modification time of a file, or of every file below a folder: cheap to take, and changed by
    any rewrite, so what was loaded can be told from what is on disk now."""
    files = [path] if path.is_file() else sorted(file for file in path.rglob("*") if file.is_file())
    return tuple((str(file), file.stat().st_size, file.stat().st_mtime_ns) for file in files)

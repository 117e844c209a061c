"""Writing a file or folder all at once: built in a hidden sibling, then renamed into place.

The sibling is named `.NAME.HOST-PID.RANDOM.partial`. A writer that is killed (SIGKILL, power loss) cannot
remove its own; the next write to the same NAME removes every sibling whose process on this host is gone,
so stale partials do not pile up. A new file or folder gets the permissions the umask gives any new one.
"""

import errno
import os
import secrets
import shutil
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from plausibility.errors import OutputPathError

_SUFFIX = ".partial"
# Errors of writing that are the machine's, not a bug: one line names the path and the cause.
_WRITE_FAILURES = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EFBIG: "the file is larger than this process may write (a size limit)",
    errno.EROFS: "the file system is read-only",
    errno.EIO: "an input/output error of the device",
    errno.EACCES: "permission denied",
    errno.EPERM: "the operation is not permitted",
}


def write_failure(path: Path, error: BaseException) -> OutputPathError | None:
    """The one-line error for an OSError raised while writing `path`, or None for an error of another kind.

    Every writer turns its write errors into this: the atomic writer (and so the table writer, the shard and
    artefact writers, exports and reports), training's checkpoints and the spool of standard input.
    """
    if not isinstance(error, OSError) or error.errno not in _WRITE_FAILURES:
        return None
    where = (
        error.filename if isinstance(error.filename, str) and not Path(error.filename).name.startswith(".") else path
    )
    return OutputPathError(f"{where}: cannot be written: {_WRITE_FAILURES[error.errno]}; nothing was written there")


def _owner() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


def _is_stale(partial: Path, prefix: str) -> bool:
    """Whether a partial's writer was on this host and has exited (a live or foreign writer's is kept)."""
    owner, _, _token = partial.name.removeprefix(prefix).removesuffix(_SUFFIX).rpartition(".")
    host, _, pid = owner.rpartition("-")
    if host != socket.gethostname() or not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except PermissionError:  # another user's process, alive
        pass
    return False


def _remove(path: Path) -> None:
    with suppress(FileNotFoundError):  # another writer may have removed it first
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def _remove_stale_partials(path: Path) -> None:
    """Remove the partials of `path` left by writers that were killed."""
    prefix = f".{path.name}."
    for candidate in path.parent.iterdir():
        if candidate.name.startswith(prefix) and candidate.name.endswith(_SUFFIX) and _is_stale(candidate, prefix):
            _remove(candidate)


@contextmanager
def atomic_path(path: Path, folder: bool = False) -> Iterator[Path]:
    """A new empty file (or folder) beside `path`, renamed onto it when the block succeeds, removed if it fails.

    A folder already at `path` is set aside (as a partial of its own) just before the rename and removed after,
    so readers see the old folder or the new one, never a mix.
    """
    if path.is_dir() and not folder:
        raise OutputPathError(f"{path}: is a folder; give the path of a file to write")
    staging = path.parent / f".{path.name}.{_owner()}.{secrets.token_hex(4)}{_SUFFIX}"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale_partials(path)
        if folder:
            staging.mkdir()
        else:
            os.close(os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as error:
        raise OutputPathError(f"{path}: cannot write there ({error.strerror}); choose a writable path") from error
    try:
        yield staging
    except BaseException as error:
        _remove(staging)
        if (failure := write_failure(path, error)) is not None:
            raise failure from error
        raise
    old = path.parent / f".{path.name}.{_owner()}.old{secrets.token_hex(4)}{_SUFFIX}"
    try:
        if folder and path.is_dir():
            os.replace(path, old)
        os.replace(staging, path)
    except OSError as error:
        if old.exists() and not path.exists():
            os.replace(old, path)  # the old folder back where it was
        _remove(staging)
        raise OutputPathError(f"{path}: cannot be replaced ({error.strerror}); choose another path") from error
    _remove(old)


def atomic_write(path: Path, write: Callable[[IO], None], binary: bool = False) -> None:
    """Call `write` on an open handle (UTF-8 text, or bytes with `binary`) and put the result at `path`."""
    with atomic_path(path) as staging:
        mode = "wb" if binary else "w"
        with staging.open(mode, **({} if binary else {"newline": "", "encoding": "utf-8"})) as handle:
            write(handle)


def atomic_write_text(path: Path, text: str) -> None:
    """Put `text` (UTF-8) at `path` all at once."""
    atomic_write(path, lambda handle: handle.write(text))

"""Atomic outputs: the permissions a new file gets, stale partials of killed writers, unwritable paths."""

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from plausibility.atomic import atomic_path, atomic_write_text
from plausibility.errors import OutputPathError
from plausibility.tables import TableWriter

SRC = Path(__file__).parents[1] / "src"


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _writer(output: Path, then: str) -> subprocess.Popen:
    """A real writer process that opens a partial of `output`, writes a row, then runs `then`."""
    code = textwrap.dedent(f"""
        import os, signal, sys, time
        from pathlib import Path
        import pandas as pd
        from plausibility.tables import TableWriter
        with TableWriter(Path({str(output)!r})) as writer:
            writer.write(pd.DataFrame({{"subject": ["a"], "verb": ["b"], "object": ["c"]}}))
            print("writing", flush=True)
            {then}
    """)
    environment = {**os.environ, "PYTHONPATH": str(SRC)}
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=environment)
    assert process.stdout.readline() == "writing\n"
    return process


def _partials(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".partial"))


def test_new_outputs_get_the_permissions_of_the_umask(tmp_path: Path, umask_022: None) -> None:
    atomic_write_text(tmp_path / "a.txt", "x\n")
    with TableWriter(tmp_path / "b.tsv") as writer:
        writer.write(pd.DataFrame({"subject": ["a"], "verb": ["b"], "object": ["c"]}))
    with atomic_path(tmp_path / "c", folder=True) as staging:
        (staging / "inner.txt").write_text("x\n")
    modes = {name: (tmp_path / name).stat().st_mode & 0o777 for name in ("a.txt", "b.tsv", "c")}
    assert modes == {"a.txt": 0o644, "b.tsv": 0o644, "c": 0o755}


def test_a_killed_writer_leaves_a_partial_that_the_next_write_removes(tmp_path: Path) -> None:
    output = tmp_path / "o.tsv"
    killed = _writer(output, "os.kill(os.getpid(), signal.SIGKILL)")
    assert killed.wait(timeout=60) == -signal.SIGKILL
    assert len(_partials(tmp_path)) == 1
    running = _writer(output, "time.sleep(60)")
    try:
        live = _partials(tmp_path)
        assert len(live) == 1  # the second writer removed the killed one's partial, and has its own
        atomic_write_text(output, "subject\tverb\tobject\n")
        assert _partials(tmp_path) == live  # a partial whose writer still runs is left alone
    finally:
        running.send_signal(signal.SIGTERM)
        running.wait(timeout=60)
    assert output.read_text() == "subject\tverb\tobject\n"


def test_writing_onto_a_folder_fails_in_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "out.tsv").mkdir()
    with pytest.raises(OutputPathError) as error, TableWriter(tmp_path / "out.tsv"):
        pass
    assert str(error.value) == f"{tmp_path / 'out.tsv'}: is a folder; give the path of a file to write"
    assert [path.name for path in tmp_path.iterdir()] == ["out.tsv"]


def test_writing_where_no_file_can_be_made_fails_in_one_line() -> None:
    with pytest.raises(OutputPathError) as error:
        atomic_write_text(Path("/proc/x.tsv"), "x\n")
    assert str(error.value).startswith("/proc/x.tsv: cannot write there (")
    assert str(error.value).endswith("); choose a writable path")


def test_a_failed_write_removes_its_partial(tmp_path: Path) -> None:
    with pytest.raises(ValueError), atomic_path(tmp_path / "out.txt") as staging:
        staging.write_text("half")
        raise ValueError("stop")
    assert list(tmp_path.iterdir()) == []

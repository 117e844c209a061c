"""Scoring tables of triples on a Ray cluster: this process reads the files with the one table reader (as the
local engine does) into the object store a chunk at a time, actors that load the model once score the rows
(`map_batches`), and this process writes a Parquet part per input file with a manifest.

The cluster is the one `RAY_ADDRESS` names, else a local Ray on this machine's cores. Rows come back in input
order; a rerun of an interrupted run skips the input files whose parts are finished.
"""

import glob
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType

import pandas as pd

from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.query.batch import BatchResult, TripleColumns, checked_invalid_lines
from plausibility.query.part_folder import PartFolder
from plausibility.query.triple_files import InvalidLine, read_triple_chunks
from plausibility.tables import SUFFIXES, table_format
from plausibility.triple import Triple


def input_files(inputs: str) -> list[Path]:
    """The tables `inputs` names: one file, every table of a folder, or the files a glob matches; sorted."""
    path = Path(inputs)
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.suffix.lower() in SUFFIXES)
    elif any(mark in inputs for mark in "*?["):
        found = sorted(Path(p) for p in glob.glob(inputs) if Path(p).suffix.lower() in SUFFIXES)
    else:
        found = [path] if path.is_file() else []
    if not found:
        raise ResourceMissingError(
            f"{inputs}: no Parquet, CSV, TSV or JSONL table there; give a file, a folder or a glob"
        )
    found = [p.resolve() for p in found]
    suffixes = {p.suffix.lower() for p in found}
    table_format(found[0])  # an unknown suffix fails in one line
    if len(suffixes) > 1:
        raise DataFormatError(f"{inputs}: the tables must share one format of {', '.join(SUFFIXES)}, got {suffixes}")
    return found


class _RayScorer:
    """A Ray actor: builds the scorer once, then scores each batch of rows it is given, each distinct triple once."""

    def __init__(self, factory: Callable[[], TripleColumns]) -> None:
        self.columns = factory()

    def __call__(self, batch: pd.DataFrame) -> pd.DataFrame:
        given = [Triple(s, v, o) for s, v, o in zip(batch["subject"], batch["verb"], batch["object"], strict=True)]
        position = {triple: index for index, triple in enumerate(dict.fromkeys(given))}
        scored = self.columns(list(position)).iloc[[position[triple] for triple in given]]
        return pd.concat([batch.reset_index(drop=True), scored.reset_index(drop=True)], axis=1)


def score_with_ray(
    inputs: str,
    output: Path,
    factory: Callable[[], TripleColumns],
    chunk_size: int = 4096,
    skip_invalid: bool = False,
    identity: dict[str, object] | None = None,
    workers: int | None = None,
    gpus_per_worker: float = 0,
) -> BatchResult:
    """Score every row of the tables `inputs` names into the part folder `output`, one part per input file.

    Rows that are not triples are found first, as `score_table` does, and stop the run unless `skip_invalid`
    (then they are left out). `factory` builds the scorer in each actor; `workers` actors (default: every
    CPU of the cluster) score `chunk_size` rows at a time.
    """
    try:
        import ray
    except ImportError as error:
        raise ResourceMissingError("the ray engine needs Ray Data; run: pip install 'ray[data]'") from error
    files = input_files(inputs)
    skipped = [line for file in files for line in checked_invalid_lines(file, skip_invalid)]
    started = not ray.is_initialized()
    if started:
        options = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if os.environ.get("RAY_ADDRESS"):
            ray.init(**options)  # a running cluster sizes itself
        else:  # the actors' CPUs and one more for the tasks that read the files, or they wait on each other
            ray.init(num_cpus=(workers or os.cpu_count() or 1) + 1, **options)
    concurrency = workers or max(1, int(ray.cluster_resources().get("CPU", 2)) - 1)
    try:
        return _score(ray, files, output, factory, chunk_size, identity, concurrency, gpus_per_worker, skipped)
    finally:
        if started:
            ray.shutdown()  # the local Ray this run started goes with it


def _score(
    ray: ModuleType,
    files: list[Path],
    output: Path,
    factory: Callable[[], TripleColumns],
    chunk_size: int,
    identity: dict[str, object] | None,
    concurrency: int,
    gpus_per_worker: float,
    skipped: list[InvalidLine],
) -> BatchResult:
    parts = PartFolder(output, files[0], chunk_size, {**(identity or {}), "inputs": [str(f) for f in files]})
    rows = 0
    with parts:
        todo = [file for index, file in enumerate(files) if not parts.finished(index)]
        rows += sum(len(parts.read(index)) for index in range(len(files) - len(todo)))
        # Each chunk goes to the object store as it is read (which spills to disk), so this process holds one chunk.
        chunks = [
            ray.put(chunk.rows.assign(path=str(file)))
            for file in todo
            for chunk in read_triple_chunks(file, chunk_size)
            if len(chunk.rows)
        ]
        if chunks:
            context = ray.data.DataContext.get_current()
            context.enable_progress_bars = False
            context.execution_options.preserve_order = True  # rows come back in input order
            dataset = ray.data.from_pandas_refs(chunks).map_batches(
                _RayScorer, fn_constructor_kwargs={"factory": factory}, batch_size=chunk_size, batch_format="pandas",
                concurrency=concurrency, num_cpus=1, num_gpus=gpus_per_worker,
            )  # fmt: skip
            rows += _write_parts(dataset.iter_batches(batch_format="pandas", batch_size=None), todo, files, parts)
        else:  # nothing to score: each file's part is empty
            rows += _write_parts([], todo, files, parts)
        parts.complete()
    return BatchResult(output, rows, skipped)


def _write_parts(
    batches: Iterable[pd.DataFrame], todo: Sequence[Path], files: Sequence[Path], parts: PartFolder
) -> int:
    """Write each input file's scored rows as its part, as soon as the rows of the next file begin."""
    remaining = [str(file) for file in todo]
    current: list[pd.DataFrame] = []
    written = 0

    def flush_until(path: str | None) -> None:
        """Write the parts of every file before `path` (all of them for None): their rows are all in."""
        nonlocal current, written
        while remaining and remaining[0] != path:
            frame = pd.concat(current, ignore_index=True) if current else pd.DataFrame()
            parts.write_part(files.index(Path(remaining.pop(0))), frame)
            written += len(frame)
            current = []

    for batch in batches:
        for path, rows in batch.groupby("path", sort=False):
            if str(path) not in remaining:
                raise DataFormatError(f"Ray returned rows of {path} out of order, or of a file that is not an input")
            flush_until(str(path))
            current.append(rows.drop(columns="path"))
    flush_until(None)
    return written

"""Scoring on worker processes that each load the model once: `scoring_pool` for units of events (what
`evaluate --workers` shares out) and `score_file` for tables (`score --input --workers`, or a Ray cluster)."""

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from plausibility.api.scorer import load_scorer, run_identity
from plausibility.devices import DType
from plausibility.query.batch import BatchResult, TripleColumns, score_table
from plausibility.scorers.shipped import DEFAULT_MODEL
from plausibility.scorers.spec import parse_spec
from plausibility.triple import Triple
from plausibility.workers import pool_of, worker_devices


@dataclass(frozen=True)
class _WorkerColumns:
    """What a worker process builds its `TripleColumns` from: a SPEC and options, never a loaded model."""

    spec: str
    device: str | None
    dtype: DType | None
    batch_size: int | None
    min_depth: int | None
    as_given: bool
    explain: bool

    def __call__(self) -> TripleColumns:
        scorer = load_scorer(
            self.spec, device=self.device, dtype=self.dtype, batch_size=self.batch_size, min_depth=self.min_depth
        )
        return scorer.table_columns(self.as_given, self.explain)


@dataclass(frozen=True)
class _WorkerScore:
    """What a worker process builds its `score` from: a SPEC and options, never a loaded model."""

    spec: str
    device: str | None
    dtype: DType | None
    batch_size: int | None
    with_probability: bool = False

    def __call__(self) -> Callable[[Sequence[Triple]], np.ndarray]:
        from plausibility.evaluation.judged_scores import with_probabilities  # SciPy's: not for `score`'s start

        scorer = load_scorer(self.spec, device=self.device, dtype=self.dtype, batch_size=self.batch_size).scorer
        return with_probabilities(scorer) if self.with_probability else scorer.score


@contextmanager
def scoring_pool(
    spec: str | None = None,
    *,
    workers: int = 1,
    device: str | None = None,
    devices: int | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
    with_probability: bool = False,
) -> Iterator[Callable[[Sequence[Sequence[Triple]]], list[np.ndarray]]]:
    """A function that scores units of triples with a SPEC, each unit in one call to its `score`, results in order:
    in this process with one worker, else on `workers` processes (or one per GPU with `device="cuda"` and
    `devices=N`) that each load the model once, for as long as the `with` block lasts. With `with_probability`,
    each unit's result is `(n, 2)`: the scores and their probabilities.

    A unit is scored alike wherever it goes, so the scores are those of one process, up to the float rounding
    of the cores each worker is given.
    """
    spec = spec or DEFAULT_MODEL
    parse_spec(spec)  # a bad SPEC fails here, in one line, before any worker starts
    factories = [
        _WorkerScore(spec, place, dtype, batch_size, with_probability)
        for place in worker_devices(workers, device, devices)
    ]
    with pool_of(factories) as pool:
        yield lambda units: [np.asarray(scores, dtype=np.float64) for scores in pool.map([list(u) for u in units])]


def score_file(
    source: Path | str,
    output: Path | str,
    spec: str | None = None,
    *,
    engine: Literal["local", "ray"] = "local",
    workers: int = 1,
    device: str | None = None,
    devices: int | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
    min_depth: int | None = None,
    chunk_size: int = 4096,
    skip_invalid: bool = False,
    as_given: bool = False,
    explain: bool = False,
    progress: bool = False,
) -> BatchResult:
    """`Scorer.score_file` on several worker processes, each loading the model once: `workers` on the CPU, or
    one per GPU with `device="cuda"` and `devices=N` (worker i on `cuda:i`). Chunks are shared out between
    the workers; the table written is the one a single process writes (in order, each distinct triple scored
    once), up to the float rounding of batches formed apart.

    With `engine="ray"`, `source` is a file, a folder or a glob of Parquet/CSV/TSV/JSONL tables, scored on the Ray
    cluster `RAY_ADDRESS` names (a local Ray otherwise) by `workers` actors (default: every CPU of the
    cluster; one GPU each with a `cuda` device), into the part folder `output`, a part per input file.
    """
    spec = spec or DEFAULT_MODEL
    parse_spec(spec)  # a bad SPEC fails here, in one line, before any worker starts
    placed = worker_devices(workers, device, devices)
    factories = [_WorkerColumns(spec, place, dtype, batch_size, min_depth, as_given, explain) for place in placed]
    identity = run_identity(spec, as_given, explain, min_depth)
    if engine == "ray":
        from plausibility.query.ray_scoring import score_with_ray

        gpus = 1 if (device or "").startswith("cuda") else 0
        return score_with_ray(
            str(source), Path(output), factories[0], chunk_size, skip_invalid, identity,
            workers if workers > 1 else None, gpus,
        )  # fmt: skip
    return score_table(factories, Path(source), Path(output), chunk_size, skip_invalid, progress, identity)

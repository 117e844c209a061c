"""Scoring units of work on every core (or GPU) of one machine: worker processes, each with its own model.

A unit is a list of triples; the function that scores it is built once per worker by a picklable factory
(the scorer's SPEC and options cross the process boundary, not the loaded model). Results come back in the
order the units went in, whichever worker finished first.
"""

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Generic, TypeVar

from plausibility.errors import CommandLineError, PlausibilityError
from plausibility.long_lived import loading_long_lived

Unit = TypeVar("Unit")
Result = TypeVar("Result")
Factory = Callable[[], Callable[[Unit], Result]]

# In each worker, set by `_start`: the function that scores a unit there, or why it could not be built.
_worker_function: Callable | PlausibilityError | None = None


def _start(factories: "multiprocessing.Queue", threads: int) -> None:
    """A worker's first step: take a factory (each worker its own: `cuda:0`, `cuda:1`, ...) and build from it."""
    global _worker_function
    import torch

    torch.set_num_threads(threads)  # the cores are shared out between the workers, not fought over
    try:
        with loading_long_lived():
            _worker_function = factories.get()()
    except PlausibilityError as error:  # raised again with the first unit, as the one-line error it is
        _worker_function = error


def _run(unit: object) -> object:
    if isinstance(_worker_function, PlausibilityError):
        raise _worker_function
    assert _worker_function is not None, "worker used before it started"
    return _worker_function(unit)


def worker_devices(workers: int, device: str | None, devices: int | None) -> list[str | None]:
    """Each worker's device: `workers` on `device`, or with `devices=N` one per GPU (`cuda:0` ... `cuda:N-1`); options
    that do not go together are a `CommandLineError` (they are the command line's `--workers` and `--devices`)."""
    if devices:
        if not (device or "").startswith("cuda") or ":" in (device or ""):
            raise CommandLineError("--devices N takes one worker per GPU: give --device cuda (no index) with it")
        return [f"cuda:{index}" for index in range(devices)]
    if workers < 1:
        raise CommandLineError(f"--workers must be at least 1, got {workers}")
    return [device] * workers


class WorkerPool(Generic[Unit, Result]):
    """One process per factory, kept for the whole run; `map` scores units in parallel, results in order."""

    def __init__(self, factories: Sequence[Factory]) -> None:
        self.size = len(factories)  # workers sharing the units out
        threads = max(1, (os.cpu_count() or 1) // self.size)
        context = multiprocessing.get_context("spawn")  # a fresh interpreter: no torch threads forked mid-flight
        queue = context.Queue()
        for factory in factories:
            queue.put(factory)
        self._pool = ProcessPoolExecutor(len(factories), context, initializer=_start, initargs=(queue, threads))

    def map(self, units: Sequence[Unit]) -> list[Result]:
        try:
            return list(self._pool.map(_run, units))
        except BrokenProcessPool as error:
            raise PlausibilityError(
                f"a scoring worker died ({error}); rerun with fewer --workers or less memory"
            ) from None

    def __enter__(self) -> "WorkerPool[Unit, Result]":
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._pool.shutdown(wait=kind is None, cancel_futures=kind is not None)


class InlinePool(Generic[Unit, Result]):
    """`WorkerPool`'s interface in this process: one worker, the model already loaded here."""

    def __init__(self, function: Callable[[Unit], Result]) -> None:
        self.function = function
        self.size = 1

    def map(self, units: Sequence[Unit]) -> list[Result]:
        return [self.function(unit) for unit in units]

    def __enter__(self) -> "InlinePool[Unit, Result]":
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        return None


def pool_of(factories: Sequence[Factory]) -> "WorkerPool | InlinePool":
    """Where units get scored: a single factory is built here (the load paused for the collector, as a worker's
    is) and scores in this process; several each build theirs in a worker process of their own."""
    if len(factories) > 1:
        return WorkerPool(factories)
    with loading_long_lived():
        return InlinePool(factories[0]())

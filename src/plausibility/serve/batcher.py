"""Micro-batching: the triples of requests that arrive together scored in one call of the model."""

import asyncio
import itertools
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass
class _Job(Generic[Item, Result]):
    """One request's items, the key its items are worked under, and where its results go."""

    key: Hashable
    items: Sequence[Item]
    done: "asyncio.Future[list[Result]]"


class MicroBatcher(Generic[Item, Result]):
    """Gathers the items of concurrent requests into one call of `work`, and gives each request its own results.

    A request waits in a queue; one drain task takes the first waiting request, gathers every other that
    arrives within `wait` seconds (and every one that queued while the model was busy), and runs `work` once
    per key on `worker`, in arrival order. A model scores a batch of 20 triples in about the time of one, so
    20 requests answered in one call take about one request's time, not twenty.

    Args:
        work: `work(key, items)` gives one result per item, in order; requests of one key share a call
            (a key is what changes how items are read, e.g. whether words are scored as given).
        worker: where `work` runs: one thread shared by every batcher of a server, so one forward pass runs at a
            time and the event loop stays free to take requests.
        wait: seconds to keep gathering after the first request of a batch arrives.
        max_items: a batch stops gathering once it holds this many items (one request may hold more).
    """

    def __init__(
        self,
        work: Callable[[Hashable, list[Item]], Sequence[Result]],
        worker: Executor,
        wait: float = 0.005,
        max_items: int = 10_000,
    ) -> None:
        self.work = work
        self.worker = worker
        self.wait = wait
        self.max_items = max_items
        self.calls = 0  # calls of `work` so far: fewer than the requests when requests were batched
        self._queue: asyncio.Queue[_Job[Item, Result]] | None = None
        self._drain: asyncio.Task[None] | None = None

    async def submit(self, items: Sequence[Item], key: Hashable = None) -> list[Result]:
        """The results of `work` for `items`, in order, computed in one batch with whatever else is waiting."""
        loop = asyncio.get_running_loop()
        if self._drain is None or self._drain.get_loop() is not loop or self._drain.done():
            # Started on first use in the loop that serves: a queue belongs to one loop (tests run several).
            self._queue = asyncio.Queue()
            self._drain = loop.create_task(self._drain_queue(self._queue))
        job: _Job[Item, Result] = _Job(key, items, loop.create_future())
        self._queue.put_nowait(job)
        return await job.done

    async def close(self) -> None:
        """Stop the drain task (requests still queued are cancelled)."""
        if self._drain is not None and not self._drain.done() and self._drain.get_loop() is asyncio.get_running_loop():
            self._drain.cancel()
            await asyncio.gather(self._drain, return_exceptions=True)
        self._drain = None

    async def _drain_queue(self, queue: "asyncio.Queue[_Job[Item, Result]]") -> None:
        while True:
            jobs = [await queue.get()]
            await asyncio.sleep(self.wait)
            count = len(jobs[0].items)
            while count < self.max_items and not queue.empty():
                jobs.append(queue.get_nowait())
                count += len(jobs[-1].items)
            for key, group in itertools.groupby(sorted(jobs, key=lambda job: str(job.key)), key=lambda job: job.key):
                await self._run(key, list(group))

    async def _run(self, key: Hashable, jobs: list[_Job[Item, Result]]) -> None:
        """One call of `work` for the jobs of one key; its failure is each job's, not the drain task's."""
        items = [item for job in jobs for item in job.items]
        try:
            results = await asyncio.get_running_loop().run_in_executor(self.worker, self.work, key, items)
            self.calls += 1
        except Exception as error:  # handed to every request of the batch, which answers with it
            for job in jobs:
                if not job.done.done():
                    job.done.set_exception(error)
            return
        start = 0
        for job in jobs:
            if not job.done.done():  # a request whose client left is cancelled
                job.done.set_result(list(results[start : start + len(job.items)]))
            start += len(job.items)

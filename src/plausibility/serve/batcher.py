"""Micro-batching: the triples of requests that arrive together scored in one call of the model, chunk by chunk."""

import asyncio
import itertools
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

# The fewest items of a chunk (and the first chunk's, before the model is timed): a language model's call costs
# about as much for 3 triples as for 30, so chunks sized by the time per item of small calls would only shrink.
MIN_CHUNK = 64


@dataclass(eq=False)
class _Job(Generic[Item, Result]):
    """One request's items, the key its items are worked under, where its results go, and how far it got."""

    key: Hashable
    items: Sequence[Item]
    done: "asyncio.Future[list[Result]]"
    started: int = 0  # items handed to `work` so far
    results: list[Result] = field(default_factory=list)

    @property
    def left(self) -> int:
        """Items not scored yet: 0 once answered, failed or given up (a request past its deadline)."""
        return 0 if self.done.done() else len(self.items) - len(self.results)


class MicroBatcher(Generic[Item, Result]):
    """Gathers the items of concurrent requests into one call of `work`, and gives each request its own results.

    A request waits in a queue; one drain task takes the first waiting request, gathers every other that
    arrives within `wait` seconds (and every one that queued while the model was busy), and runs `work` per
    key on `worker`, in arrival order. A model scores a batch of 20 triples in about the time of one, so
    20 requests answered in one call take about one request's time, not twenty.

    A batch runs in chunks of about `chunk_seconds` of work (sized by the time the last chunks took per item), of
    at least `MIN_CHUNK` items.
    Between chunks, requests that are gone (answered with an error, past their deadline, their client left) are
    dropped, so their unstarted items are never scored, and `fail_pending` ends every request at once.

    Args:
        work: `work(key, items)` gives one result per item, in order; requests of one key share a call
            (a key is what changes how items are read, e.g. whether words are scored as given).
        worker: where `work` runs: one thread shared by every batcher of a server, so one forward pass runs at a
            time and the event loop stays free to take requests.
        wait: seconds to keep gathering after the first request of a batch arrives.
        max_items: a batch stops gathering once it holds this many items (one request may hold more).
        chunk_seconds: the work one call of `work` is sized to; a stopping server waits for one such call.
    """

    def __init__(
        self,
        work: Callable[[Hashable, list[Item]], Sequence[Result]],
        worker: Executor,
        wait: float = 0.005,
        max_items: int = 10_000,
        chunk_seconds: float = 1.0,
    ) -> None:
        self.work = work
        self.worker = worker
        self.wait = wait
        self.max_items = max_items
        self.chunk_seconds = chunk_seconds
        self.seconds_per_item: float | None = None  # of the last calls, smoothed; None before the first
        self.call_seconds = 0.0  # how long the last call of `work` took
        self._jobs: set[_Job[Item, Result]] = set()  # submitted and not yet given back
        self._queue: asyncio.Queue[_Job[Item, Result]] | None = None
        self._drain: asyncio.Task[None] | None = None

    @property
    def backlog(self) -> int:
        """Items submitted and not yet scored, of requests still waiting for them."""
        return sum(job.left for job in self._jobs)

    def backlog_seconds(self) -> float:
        """About how long the backlog takes to score, at the rate of the last calls (0 before the first)."""
        return self.backlog * (self.seconds_per_item or 0.0)

    async def submit(self, items: Sequence[Item], key: Hashable = None) -> list[Result]:
        """The results of `work` for `items`, in order, computed in batches with whatever else is waiting.

        Cancelled (a deadline, a client gone), the request's items not yet handed to `work` are dropped.
        """
        if not items:
            return []
        loop = asyncio.get_running_loop()
        if self._drain is None or self._drain.get_loop() is not loop or self._drain.done():
            # Started on first use in the loop that serves: a queue belongs to one loop (tests run several).
            self._queue = asyncio.Queue()
            self._drain = loop.create_task(self._drain_queue(self._queue))
        job: _Job[Item, Result] = _Job(key, items, loop.create_future())
        self._jobs.add(job)
        self._queue.put_nowait(job)  # type: ignore[union-attr]
        try:
            return await job.done
        finally:
            self._jobs.discard(job)

    def fail_pending(self, error: Exception) -> None:
        """End every request still waiting with `error`; the call of `work` under way is the last of theirs."""
        for job in list(self._jobs):
            if not job.done.done():
                job.done.set_exception(error)

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

    def _chunk_size(self) -> int:
        if self.seconds_per_item is None:
            return MIN_CHUNK
        return max(MIN_CHUNK, min(self.max_items, int(self.chunk_seconds / self.seconds_per_item)))

    async def _run(self, key: Hashable, jobs: list[_Job[Item, Result]]) -> None:
        """The jobs of one key, chunk by chunk; a chunk's failure is its jobs', not the drain task's."""
        while live := [job for job in jobs if job.left]:
            size, taken = self._chunk_size(), []
            for job in live:
                stop = min(len(job.items), job.started + size)
                taken.append((job, job.started, stop))
                size -= stop - job.started
                if size == 0:
                    break
            items = [item for job, start, stop in taken for item in job.items[start:stop]]
            for job, _, stop in taken:
                job.started = stop
            begin = time.perf_counter()
            try:
                results = await asyncio.get_running_loop().run_in_executor(self.worker, self.work, key, items)
            except Exception as error:  # handed to every request of the chunk, which answers with it
                for job, _, _ in taken:
                    if not job.done.done():
                        job.done.set_exception(error)
                continue
            self.call_seconds = time.perf_counter() - begin
            per_item = self.call_seconds / len(items)
            old = self.seconds_per_item
            self.seconds_per_item = per_item if old is None else 0.5 * old + 0.5 * per_item
            offset = 0
            for job, start, stop in taken:
                if not job.done.done():  # a request past its deadline, or whose client left, is cancelled
                    job.results.extend(results[offset : offset + stop - start])
                    if len(job.results) == len(job.items):
                        job.done.set_result(job.results)
                offset += stop - start

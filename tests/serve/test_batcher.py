"""The micro-batcher answers each request with its own results, in order, from as few calls as the timing allows."""

import asyncio
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor

import pytest

from plausibility.serve.batcher import MicroBatcher


class Doubler:
    """Work that doubles numbers and keeps every batch it was given; a key of "fail" fails its batch."""

    def __init__(self) -> None:
        self.batches: list[tuple[Hashable, list[int]]] = []

    def __call__(self, key: Hashable, items: list[int]) -> list[int]:
        self.batches.append((key, list(items)))
        if key == "fail":
            raise ValueError("this batch fails")
        return [2 * item for item in items]


def _run(requests: list[tuple[list[int], Hashable]], work: Doubler, wait: float = 0.05) -> list[object]:
    async def main() -> list[object]:
        batcher = MicroBatcher(work, ThreadPoolExecutor(max_workers=1), wait=wait)
        answers = await asyncio.gather(*(batcher.submit(items, key) for items, key in requests), return_exceptions=True)
        await batcher.close()
        return answers

    return asyncio.run(main())


def test_concurrent_requests_share_one_call_and_each_gets_its_own_results_in_order() -> None:
    work = Doubler()
    requests = [([index, index + 100], None) for index in range(20)]
    assert _run(requests, work) == [[2 * index, 2 * index + 200] for index in range(20)]
    assert work.batches == [(None, [number for items, _ in requests for number in items])]


def test_requests_of_different_keys_are_called_apart() -> None:
    work = Doubler()
    assert _run([([1], False), ([2], True), ([3], False)], work) == [[2], [4], [6]]
    assert sorted(work.batches, key=str) == [(False, [1, 3]), (True, [2])]


def test_a_failing_batch_fails_its_own_requests_only_and_the_batcher_goes_on() -> None:
    work = Doubler()
    answers = _run([([1], "fail"), ([2], "ok"), ([3], "fail")], work)
    assert [str(answer) for answer in answers] == ["this batch fails", "[4]", "this batch fails"]

    async def later() -> tuple[list[int], list[int]]:
        batcher = MicroBatcher(work, ThreadPoolExecutor(max_workers=1), wait=0)
        with pytest.raises(ValueError, match="this batch fails"):
            await batcher.submit([5], "fail")
        return await batcher.submit([6], "ok"), await batcher.submit([7], "ok")

    assert asyncio.run(later()) == ([12], [14])

"""A full queue is refused (429), a late answer is a 503 whose unscored triples are dropped, and a stop always ends."""

import asyncio
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from plausibility.serve.app import build_app
from plausibility.serve.served import ServedModel, load_models

FIXTURES = Path(__file__).parents[1] / "fixtures"
NGRAM = f"ngram:{FIXTURES / 'ngram_triples.tsv'}"
FIRST = [["person", "eat", "apple"], ["dog", "chase", "cat"], ["bird", "eat", "seed"]]
SECOND = [["child", "drink", "milk"], ["horse", "eat", "grass"], ["man", "read", "book"]]
LATER = [["farmer", "grow", "fruit"]]


class Gate:
    """The model's `records`, held at its first call until released; every batch it was given is kept."""

    def __init__(self, model: ServedModel) -> None:
        self.model = model
        self.batches: list[list[tuple[str, str, str]]] = []
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self, triples: list[tuple[str, str, str]], as_given: bool = False) -> list[dict[str, object]]:
        self.batches.append([tuple(triple) for triple in triples])
        self.started.set()
        self.release.wait(30)
        return type(self.model.scorer).records(self.model.scorer, triples, as_given=as_given)


@pytest.fixture(scope="module")
def model() -> ServedModel:
    return load_models([NGRAM])[0]


@pytest.fixture
def gate(model: ServedModel) -> Iterator[Gate]:
    gate = Gate(model)
    model.scorer.records = gate
    try:
        yield gate
    finally:
        gate.release.set()
        del model.scorer.records


async def _until(condition: Callable[[], bool]) -> None:
    """Wait (at most 10 s) until `condition` holds: a state to reach, not a time that passes."""
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the condition never held")


def _run(scenario: Callable[[httpx.AsyncClient, object], object], **options: object) -> object:
    async def main(model: ServedModel) -> object:
        app = build_app([model], **options)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://serve", timeout=30) as client:
            try:
                return await scenario(client, app.state.server)
            finally:
                await app.state.server.close()

    return asyncio.run(main(options.pop("model")))  # type: ignore[arg-type]


def _tuples(triples: list[list[str]]) -> list[tuple[str, ...]]:
    return [tuple(triple) for triple in triples]


def test_a_request_that_would_wait_behind_more_than_max_queue_triples_gets_429(model: ServedModel, gate: Gate) -> None:
    async def scenario(client: httpx.AsyncClient, server: object) -> tuple:
        first = asyncio.create_task(client.post("/v1/score", json={"triples": FIRST}))
        await asyncio.to_thread(gate.started.wait, 10)
        second = asyncio.create_task(client.post("/v1/score", json={"triples": SECOND}))
        await _until(lambda: server.scores[NGRAM].backlog == 6)  # 3 scoring, 3 queued: more than 4
        refused = await client.post("/v1/score", json={"triples": LATER})
        gate.release.set()
        return refused, await first, await second

    refused, first, second = _run(scenario, model=model, max_queue=4)
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert refused.json() == {
        "error": "server: busy: 6 triples are queued ahead, more than --max-queue 4; "
        f"retry in {refused.headers['retry-after']} s",
        "field": "server",
    }
    assert (first.status_code, second.status_code) == (200, 200)
    assert gate.batches == [_tuples(FIRST), _tuples(SECOND)]  # the refused request never reached the model


def test_a_request_past_its_deadline_gets_503_and_its_unstarted_triples_are_never_scored(
    model: ServedModel, gate: Gate
) -> None:
    async def scenario(client: httpx.AsyncClient, server: object) -> tuple:
        first = asyncio.create_task(client.post("/v1/score", json={"triples": FIRST}))
        await asyncio.to_thread(gate.started.wait, 10)
        second = await client.post("/v1/score", json={"triples": SECOND})  # queued behind the held first
        first = await first
        gate.release.set()
        later = await client.post("/v1/score", json={"triples": LATER})  # answered after whatever queued before it
        return first, second, later

    first, second, later = _run(scenario, model=model, timeout=0.5)
    for late in (first, second):
        assert (late.status_code, late.headers["retry-after"], late.json()) == (
            503,
            "1",
            {
                "error": "server: not answered within 0.5 s (--timeout); retry, or send fewer triples at a time",
                "field": "server",
            },
        )
    assert later.status_code == 200
    assert gate.batches == [_tuples(FIRST), _tuples(LATER)]  # the second was dropped unscored


def test_a_stopping_server_answers_what_is_in_flight_and_refuses_new_requests(model: ServedModel, gate: Gate) -> None:
    async def scenario(client: httpx.AsyncClient, server: object) -> tuple:
        first = asyncio.create_task(client.post("/v1/score", json={"triples": FIRST}))
        await asyncio.to_thread(gate.started.wait, 10)
        stopping = asyncio.create_task(server.stop(grace=20))
        await _until(lambda: server.closing)
        new = await client.post("/v1/score", json={"triples": LATER})
        gate.release.set()
        begin = time.monotonic()
        first = await first
        await stopping
        return first, new, time.monotonic() - begin

    first, new, stopped_after = _run(scenario, model=model)
    assert first.status_code == 200
    assert (new.status_code, new.json()["error"]) == (
        503,
        "server: shutting down; send the request again once it is back",
    )
    assert stopped_after < 5  # the stop ends once nothing is in flight, not at the end of its grace


def _serve_slowly(grace: float) -> subprocess.Popen:
    """`plausibility serve` of the n-gram whose every triple takes 10 ms to score, printing each batch's size."""
    code = (
        "import sys, time\n"
        "from plausibility.api import Scorer\n"
        "from plausibility.cli import main\n"
        "records = Scorer.records\n"
        "def slow(self, triples, *args, **kwargs):\n"
        "    print('scoring', len(triples), file=sys.stderr, flush=True)\n"
        "    time.sleep(0.01 * len(triples))\n"
        "    return records(self, triples, *args, **kwargs)\n"
        "Scorer.records = slow\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    argv = ["serve", "--model", NGRAM, "--port", "0", "--grace", str(grace), "--timeout", "600"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-c", code, "-q", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def _line(stream: object, prefix: str, seconds: float) -> str:
    """The first line of `stream` starting with `prefix`, read within `seconds`."""
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if selector.select(deadline - time.monotonic()):
            line = stream.readline()
            if line.startswith(prefix) or not line:
                return line
    return ""


def test_sigterm_during_a_long_batch_answers_503_and_exits_143_within_the_grace_period() -> None:
    grace = 2.0
    server = _serve_slowly(grace)
    try:
        serving = _line(server.stdout, "serving ", 120)
        assert serving.startswith("serving "), serving
        url = serving.rsplit(" at ", 1)[1].strip()
        triples = [["person", "eat", f"apple{index}"] for index in range(3000)]  # 30 s of scoring
        answer: list[httpx.Response] = []
        request = threading.Thread(
            target=lambda: answer.append(httpx.post(f"{url}v1/score", json={"triples": triples}, timeout=60))
        )
        request.start()
        assert _line(server.stderr, "scoring 64", 30) == "scoring 64\n"  # the batch's first chunk is being scored
        server.send_signal(signal.SIGTERM)
        begin = time.monotonic()
        code = server.wait(timeout=30)
        exited_after = time.monotonic() - begin
        request.join(30)
    finally:
        server.kill()
        server.wait()
    assert code == 143
    assert exited_after < grace + 1.5
    assert answer[0].status_code == 503
    assert answer[0].json()["error"] == "server: shutting down, and not answered within --grace 2 s; retry"

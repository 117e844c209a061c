"""Benchmark: `plausibility serve` under load: latency and throughput at 1, 10 and 100 concurrent clients.

For each model, one run starts its own server on 127.0.0.1 (`serve --port 0`, a subprocess of this script,
stopped by SIGTERM at the end), reads its memory (RSS) once it is loaded and again after the last measurement,
then, for each number of clients, keeps that many clients busy for `--seconds` (at most `--max-requests`
requests): each client sends a request of `--triples` distinct Pep-3k events over its own keep-alive connection,
waits for the answer, and sends the next. Latencies are of the requests answered 200; refusals (429, 503) are
counted apart. Rates are over the cell's wall time, 200 answers only. The client is a few lines of asyncio on
raw sockets, so it takes little of the CPU the server shares with it.

    .venv/bin/python bench/serve_load.py [--models ngram,default] [--clients 1,10,100] [--seconds 5]
        [--src /path/to/another/checkout/src] [--serve-option=--max-queue=500 ...]

`--src` serves another checkout's code (its `src` put first on PYTHONPATH) with this environment, so two
commits compare on one machine in one session.
"""

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

PEP3K = Path(__file__).parents[1] / "data" / "evaluation" / "pep3k"
# A request not answered in this long is counted as a failure; bounds how long a cell can outlast --seconds.
CLIENT_TIMEOUT = 60.0


def events() -> list[list[str]]:
    """Every distinct Pep-3k event (both halves), in a fixed order."""
    seen: dict[tuple[str, ...], None] = {}
    for half in ("valid", "test"):
        for line in (PEP3K / f"{half}.tsv").read_text().splitlines():
            seen.setdefault(tuple(line.split("\t")[1:4]))
    return [list(event) for event in seen]


def rss_mib(pid: int) -> float:
    """A process's resident memory in MiB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def start_server(model: str, src: str | None, options: list[str]) -> tuple[subprocess.Popen, int]:
    """A server of `model` on a free loopback port, and that port, once it prints its address (at most 15 min)."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    command = [sys.executable, "-m", "plausibility", "-q", "serve", "--model", model, "--host", "127.0.0.1"]
    server = subprocess.Popen([*command, "--port", "0", *options], stdout=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 900
    line = ""
    while time.monotonic() < deadline and server.poll() is None:
        line = server.stdout.readline()
        if line.startswith("serving "):
            return server, int(line.rsplit(":", 1)[1].strip(" /\n"))
    stop_server(server)
    sys.exit(f"the server of {model} did not start: {line!r}")


def stop_server(server: subprocess.Popen) -> int:
    """SIGTERM, then SIGKILL if it has not exited 60 s later; its exit code."""
    server.send_signal(signal.SIGTERM)
    try:
        return server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        return server.wait()


async def _client(port: int, bodies: list[bytes], stop_at: float, budget: list[int], results: list) -> None:
    """Send requests one after another over one connection until `stop_at` or the shared budget runs out."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        index = 0
        while time.monotonic() < stop_at and budget[0] > 0:
            budget[0] -= 1
            body = bodies[index % len(bodies)]
            index += 1
            head = "POST /v1/score HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            writer.write(f"{head}content-length: {len(body)}\r\n\r\n".encode() + body)
            begin = time.monotonic()
            try:
                status, closing = await asyncio.wait_for(_answer(reader), CLIENT_TIMEOUT)
            except (TimeoutError, ConnectionError, asyncio.IncompleteReadError):
                results.append((0, time.monotonic() - begin))
                return
            results.append((status, time.monotonic() - begin))
            if closing:
                return
    finally:
        writer.close()


async def _answer(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """An HTTP/1.1 answer's status, and whether the server closes the connection after it; its body is read."""
    header = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
    lines = header.split("\r\n")
    length = next(int(line.split(":", 1)[1]) for line in lines if line.startswith("content-length:"))
    await reader.readexactly(length)
    return int(lines[0].split()[1]), "connection: close" in header


async def _cell(port: int, bodies: list[bytes], clients: int, seconds: float, max_requests: int) -> tuple:
    results: list[tuple[int, float]] = []
    begin = time.monotonic()
    budget = [max_requests]
    await asyncio.gather(*(_client(port, bodies[i::clients], begin + seconds, budget, results) for i in range(clients)))
    return results, time.monotonic() - begin


def measure(port: int, bodies: list[bytes], clients: int, seconds: float, max_requests: int) -> dict[str, object]:
    """One cell of the table: `clients` clients busy for `seconds` (at most `max_requests` requests in all)."""
    results, wall = asyncio.run(_cell(port, bodies, clients, seconds, max_requests))
    statuses = Counter(status for status, _ in results)
    answered = sorted(latency for status, latency in results if status == 200)
    p99 = answered[min(len(answered) - 1, int(0.99 * len(answered)))] if answered else float("nan")
    return {
        "requests": len(results),
        "ok": statuses[200],
        "429": statuses[429],
        "503": statuses[503],
        "other": len(results) - statuses[200] - statuses[429] - statuses[503],
        "p50": 1000 * statistics.median(answered) if answered else float("nan"),
        "p99": 1000 * p99,
        "rate": statuses[200] / wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="ngram,default", help="SPECs served, one server each")
    parser.add_argument("--clients", default="1,10,100", help="concurrent clients of each cell")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each cell keeps its clients busy")
    parser.add_argument("--max-requests", type=int, default=20_000, help="requests of a cell at most")
    parser.add_argument("--triples", type=int, default=3, help="triples per request")
    parser.add_argument("--src", help="serve this checkout's src instead (put first on PYTHONPATH)")
    parser.add_argument("--serve-option", action="append", default=[], help="an option passed to serve, repeatable")
    args = parser.parse_args()
    pool = events()
    bodies = [
        json.dumps({"triples": pool[start : start + args.triples]}).encode()
        for start in range(0, len(pool) - args.triples + 1, args.triples)
    ]
    print(f"{len(bodies)} distinct requests of {args.triples} Pep-3k events; {args.seconds:g} s per cell")
    print("| model | clients | requests | 200 | 429 | 503 | other | p50 ms | p99 ms | requests/s | triples/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    memory = []
    for model in args.models.split(","):
        server, port = start_server(model, args.src, args.serve_option)
        try:
            before = rss_mib(server.pid)
            measure(port, bodies[-20:], 1, 1.0, 20)  # warm-up, on events no cell starts with
            for clients in (int(count) for count in args.clients.split(",")):
                cell = measure(port, bodies, clients, args.seconds, args.max_requests)
                print(
                    f"| {model} | {clients} | {cell['requests']} | {cell['ok']} | {cell['429']} | {cell['503']} | "
                    f"{cell['other']} | {cell['p50']:.1f} | {cell['p99']:.1f} | {cell['rate']:.1f} | "
                    f"{cell['rate'] * args.triples:.1f} |",
                    flush=True,
                )
            after = rss_mib(server.pid)
        finally:
            code = stop_server(server)
        memory.append(f"{model}: RSS {before:,.0f} MiB loaded, {after:,.0f} MiB after the cells; exit {code}")
    print("\n".join(memory))


if __name__ == "__main__":
    main()

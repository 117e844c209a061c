"""Benchmark: `plausibility serve`'s triples/s for requests of 1, 100 and 1,000 triples, against `score --input`.

One run measures, on the same machine: `plausibility score --input` on 1,000 Pep-3k / 20Q events (a fresh
process: its start and model load are included, as a caller who shells out pays them), and its start alone
(one triple); then a server of the same model, started once: the latency of a one-triple request after start
(median of 100, one client), and its triples/s for requests of 1 triple (from `--clients` clients at once, so
the micro-batcher can gather them), of 100 and of 1,000 triples (one client). Each measurement reads its own
events (a ConceptMax remembers the abstractions it scored, so reusing events would flatter the later ones);
`score --input` reads the same 1,000 as the 1,000-triple request.

    .venv/bin/python bench/serve_throughput.py [--model SPEC] [--clients 16]
"""

import argparse
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from plausibility.benchmarks.datasets import load_plausibility_set

COMMAND = str(Path(sys.executable).with_name("plausibility"))


def distinct_events() -> list[list[str]]:
    """Every distinct event of Pep-3k and 20Q (both halves), in a fixed order."""
    seen: dict[tuple[str, str, str], None] = {}
    for name in ("pep3k", "20q"):
        for split in ("valid", "test"):
            for event in load_plausibility_set(name, split):
                seen.setdefault((event.triple.subject, event.triple.verb, event.triple.object))
    return [list(triple) for triple in seen]


def score_input_seconds(model: str, events: list[list[str]], folder: Path) -> float:
    """Wall time of `plausibility score --input` on `events`, in a fresh process."""
    source = folder / f"events-{len(events)}.tsv"
    source.write_text("".join("\t".join(event) + "\n" for event in events))
    start = time.perf_counter()
    command = [COMMAND, "-q", "score", "--model", model, "--input", str(source), "--output", str(folder / "out.tsv")]
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def post(client: httpx.Client, url: str, events: list[list[str]]) -> None:
    response = client.post(f"{url}v1/score", json={"triples": events}, timeout=3600)
    response.raise_for_status()


def requests_seconds(url: str, events: list[list[str]], size: int, clients: int) -> float:
    """Wall time to score `events` as requests of `size` triples, sent by `clients` clients at once."""
    chunks = [events[start : start + size] for start in range(0, len(events), size)]
    with httpx.Client() as client, ThreadPoolExecutor(max_workers=clients) as pool:
        start = time.perf_counter()
        list(pool.map(lambda chunk: post(client, url, chunk), chunks))
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="default", help="the SPEC served and scored (default: %(default)s)")
    parser.add_argument("--clients", type=int, default=16, help="clients sending one-triple requests at once")
    parser.add_argument("--batch-wait", type=float, default=5.0, help="the server's --batch-wait (milliseconds)")
    args = parser.parse_args()
    events = distinct_events()
    latency_events, sets = events[:100], [events[100 + 1000 * i : 1100 + 1000 * i] for i in range(3)]
    with tempfile.TemporaryDirectory(prefix="serve-bench-") as folder:
        baseline = score_input_seconds(args.model, sets[2], Path(folder))
        cold = score_input_seconds(args.model, sets[2][:1], Path(folder))
    print(f"model: {args.model}; {len(sets[2])} distinct Pep-3k / 20Q events per measurement")
    print(f"server: --batch-wait {args.batch_wait} ms; one-triple requests from {args.clients} clients at once")
    print(f"{'score --input, 1,000 triples (start included)':52} {baseline:7.1f} s  {1000 / baseline:8.1f} triples/s")
    print(f"{'score --input, 1 triple (its start alone)':52} {cold:7.1f} s")
    scoring = f"{1000 / (baseline - cold):8.1f} triples/s" if baseline > cold else "(within the noise of its start)"
    print(f"{'score --input, 1,000 triples less its start':52} {baseline - cold:7.1f} s  {scoring}")

    start = time.perf_counter()
    server = subprocess.Popen(
        [COMMAND, "-q", "serve", "--model", args.model, "--port", "0", "--batch-wait", str(args.batch_wait)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        ready, _, _ = select.select([server.stdout], [], [], 900)
        line = server.stdout.readline() if ready else ""
        if not line.startswith("serving "):
            sys.exit(f"the server did not start: {line!r}")
        url = line.split(" at ")[-1].strip()
        print(f"{'serve: start (load and warm-up)':52} {time.perf_counter() - start:7.1f} s")
        latencies = []
        with httpx.Client() as client:
            for event in latency_events:
                begin = time.perf_counter()
                post(client, url, [event])
                latencies.append(time.perf_counter() - begin)
        median = statistics.median(latencies)
        rate = len(latencies) / sum(latencies)
        print(
            f"{'serve: one-triple request, median of 100 (1 client)':52} {1000 * median:7.1f} ms {rate:8.1f} triples/s"
        )
        for size, clients, chosen in ((1, args.clients, sets[0]), (100, 1, sets[1]), (1000, 1, sets[2])):
            seconds = requests_seconds(url, chosen, size, clients)
            label = (
                f"serve: requests of {size:,} triple{'s' if size > 1 else ''} ({clients} client{'s' * (clients > 1)})"
            )
            ratio = (len(chosen) / seconds) / (1000 / baseline)
            print(f"{label:52} {seconds:7.1f} s  {len(chosen) / seconds:8.1f} triples/s ({ratio:.1f}x score --input)")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


if __name__ == "__main__":
    main()

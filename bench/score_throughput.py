"""Benchmark: `plausibility score --input` throughput of the default model and of each of its members, with 1 and
2 workers, against another checkout's code (today's path) on the same triples in the same run.

The triples are the first `--triples` distinct pseudo-negative events of the bundled training pairs (rare
combinations), written as one TSV; with `--repeat K` each comes back K times, shuffled over the table, as a
knowledge base repeats its common relations. Rates are rows per second. Each run is a fresh
`plausibility score --input ... --output ...` process; its wall time includes loading the model(s), which
is measured apart (the cold score of one triple) and taken off for the scoring rate. The first configuration
of each model is the baseline its ratios are against: the `--baseline-src` checkout when given, else 1
worker of this one. The scores of every configuration are compared with the first one's. With `--ray N`,
this checkout also scores the same rows (as Parquet) with `--engine ray --workers N` on a local Ray, whose
start is part of its wall time.

    .venv/bin/python bench/score_throughput.py [--triples 20000 | --test-halves] [--models default,conceptmax,...]
        [--workers 1,2] [--chunk-size 500] [--repeat 1] [--baseline-src /path/to/old/src] [--ray 2]
        [--device cuda] [--dtypes float32,bfloat16]

With `--dtypes`, every configuration runs once per precision (`score --dtype`), the first the baseline of the
others: on a GPU, bf16 against fp32; `own` (the default) passes none, so each model runs in its own precision
(the default's language model in bfloat16 on a CPU with bfloat16 units). Both options go to this checkout and
the baseline alike.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from plausibility.resources.paths import bundled_pairs

MODELS = "default,event:conceptmax,conceptmax,zero-shot:@pmi-passive,ngram"


def distinct_triples(count: int) -> pd.DataFrame:
    """The first `count` distinct pseudo-negative events of the bundled pairs."""
    columns = ["negative_subject", "verb", "negative_object"]
    pairs = pq.read_table(bundled_pairs(), columns=columns).to_pandas().drop_duplicates()
    return pairs.head(count).set_axis(["subject", "verb", "object"], axis=1).reset_index(drop=True)


def test_halves() -> pd.DataFrame:
    """The events of the test halves of Pep-3k and 20Q, as written, but the one whose subject is two words ("fire
    hydrant"), which `score` refuses (4,078 rows)."""
    from plausibility.benchmarks.datasets import load_plausibility_set

    events = [event.triple for name in ("pep3k", "20q") for event in load_plausibility_set(name, "test")]
    events = [t for t in events if " " not in f"{t.subject}{t.verb}{t.object}"]
    return pd.DataFrame([(t.subject, t.verb, t.object) for t in events], columns=["subject", "verb", "object"])


def timed(arguments: list[str], source: str | None) -> float:
    """Wall seconds of one fresh process (it must succeed)."""
    environment = {**os.environ, **({"PYTHONPATH": source} if source else {})}
    start = time.perf_counter()
    subprocess.run(arguments, check=True, capture_output=True, env=environment)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triples", type=int, default=20_000, help="distinct triples")
    parser.add_argument(
        "--test-halves", action="store_true", help="score the test halves of Pep-3k and 20Q instead of --triples"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="rows per distinct triple, shuffled (seed 0) over the table"
    )
    parser.add_argument("--models", default=MODELS, help=f"comma-separated SPECs (default: {MODELS})")
    parser.add_argument("--workers", default="1,2", help="worker counts to run this checkout with")
    parser.add_argument("--chunk-size", type=int, default=500, help="rows per chunk: the unit workers share out")
    parser.add_argument("--baseline-src", help="another checkout's src/ (today's path), run with this interpreter")
    parser.add_argument("--ray", type=int, metavar="N", help="also score with --engine ray and N actors")
    parser.add_argument("--device", help="where every configuration loads its model (score --device)")
    parser.add_argument(
        "--dtypes",
        default="own",
        help="comma-separated precisions to run each configuration in; own (the default) passes no --dtype, so "
        "each model runs as it does for a user",
    )
    args = parser.parse_args()
    command = [sys.executable, "-m", "plausibility", "-q", "score"]
    chunks = ["--chunk-size", str(args.chunk_size)]
    with tempfile.TemporaryDirectory() as folder:
        table = Path(folder) / "triples.tsv"
        table_rows = test_halves() if args.test_halves else distinct_triples(args.triples)
        rows = pd.concat([table_rows] * args.repeat, ignore_index=True)
        rows = rows.sample(frac=1, random_state=0).reset_index(drop=True)
        rows.to_csv(table, sep="\t", index=False)
        rows.to_parquet(Path(folder) / "triples.parquet")  # what --engine ray reads
        print(
            f"{len(rows):,} rows of {len(table_rows):,} triples in chunks of {args.chunk_size:,}; "
            f"{os.cpu_count()} CPU cores"
        )
        print(
            f"{'model':26} {'path':10} {'workers':>7} {'dtype':>8} {'wall s':>8} {'load s':>7} {'triples/s':>10} "
            f"{'ratio':>6} max|Δ|"
        )
        best: dict[str, float] = {}  # each model's best rate, against the first model's at the end
        for model in args.models.split(","):
            configurations = [("baseline", args.baseline_src, 1)] if args.baseline_src else []
            configurations += [("this", None, int(n)) for n in args.workers.split(",")]
            configurations += [("ray", None, args.ray)] if args.ray else []
            configurations = [(*c, dtype) for c in configurations for dtype in args.dtypes.split(",")]
            first_rate, first_scores = None, None
            best[model] = 0.0
            for label, source, workers, dtype in configurations:
                named = [] if model == "default" else ["--model", model]  # each checkout's own default
                named += [
                    *(["--dtype", dtype] if dtype != "own" else []),
                    *(["--device", args.device] if args.device else []),
                ]
                load = timed([*command, "person", "breathe", "air", *named], source)
                ray = label == "ray"
                output = Path(folder) / (f"ray-{model}-{dtype}" if ray else f"{label}-{workers}-{dtype}.parquet")
                source_table = Path(folder) / "triples.parquet" if ray else table
                extra = ["--workers", str(workers)] if workers > 1 or ray else []
                extra += ["--engine", "ray"] if ray else []
                arguments = [*command, "--input", str(source_table), "--output", str(output), *named, *chunks, *extra]
                wall = timed(arguments, source)
                rate = len(rows) / max(wall - load, 1e-9)  # rows scored per second
                scores = pd.read_parquet(output)["score"].to_numpy()
                first_rate = first_rate or rate
                best[model] = max(best[model], rate)
                first_scores = scores if first_scores is None else first_scores
                gap = float(np.abs(scores - first_scores).max())
                figures = f"{wall:8.1f} {load:7.1f} {rate:10.1f} {rate / first_rate:5.2f}x {gap:.1e}"
                print(f"{model:26} {label:10} {workers:7} {dtype:>8} {figures}", flush=True)
        first = next(iter(best))
        for model, rate in best.items():
            print(f"{model}: best {rate:.1f} triples/s, {rate / best[first]:.2f}x {first}'s best")


if __name__ == "__main__":
    main()

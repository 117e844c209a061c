"""Benchmark `plausibility extract`: overhead over plain `nlp.pipe`, scaling to 2 workers, flat memory.

Prints three ratios, all measured in one run over the first paragraphs of the given corpus files:
  1. throughput of `plausibility extract --workers 1` / plain `nlp.pipe` over the same paragraphs, same
     model and components, model load included in both (target >= 0.8);
  2. wall time with 1 worker / with 2 workers (target >= 1.6);
  3. peak RSS of the whole process tree at `--scale` times the paragraphs / at the base size, both with
     2 workers (target <= 1.1).

    .venv/bin/python bench/extract.py CORPUS.txt.xz [...] [--paragraphs 5400] [--scale 10]

About 3.7 sentences per paragraph in the bundled Wikipedia corpus: 5,400 paragraphs is ~20,000 sentences.
"""

import argparse
import itertools
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from plausibility.corpus.parsers import SPACY_EXCLUDE
from plausibility.corpus.readers import inspect_source, read_paragraphs


def first_paragraphs(paths: list[Path], count: int) -> list[str]:
    stream = (paragraph for path in paths for paragraph in read_paragraphs(inspect_source(path)))
    return list(itertools.islice(stream, count))


def plain_pipe(corpus: Path) -> tuple[int, float]:
    """Sentences and seconds of plain `nlp.pipe` over the corpus file, in a fresh interpreter."""
    code = (
        "import sys, time; start = time.perf_counter()\n"
        "from plausibility.resources.parser import load_spacy\n"
        f"nlp = load_spacy(exclude={SPACY_EXCLUDE!r})\n"
        "lines = (line.strip() for line in open(sys.argv[1], encoding='utf-8'))\n"
        "n = sum(len(list(doc.sents)) for doc in nlp.pipe((line for line in lines if line), batch_size=64))\n"
        "print(n, time.perf_counter() - start)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(corpus)], check=True, capture_output=True, text=True)
    sentences, seconds = out.stdout.split()
    return int(sentences), float(seconds)


def tree_rss(process: psutil.Process) -> int:
    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            total += member.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total


def extract(corpus: Path, workers: int, shard_size: int) -> tuple[int, float, int]:
    """Sentences, wall seconds and peak tree RSS (bytes) of one `plausibility extract` run."""
    with tempfile.TemporaryDirectory() as output:
        command = [sys.executable, "-m", "plausibility", "extract", str(corpus), "--output", output]
        command += ["--workers", str(workers), "--shard-size", str(shard_size), "--min-count", "1"]
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        watched, peak = psutil.Process(child.pid), 0
        while child.poll() is None:
            try:
                peak = max(peak, tree_rss(watched))
            except psutil.NoSuchProcess:
                break
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        stdout, stderr = child.communicate()
        if child.returncode != 0:
            raise SystemExit(f"extract failed: {stderr}")
        sentences = int(
            next(line for line in stdout.splitlines() if "sentences parsed" in line).split()[0].replace(",", "")
        )
        return sentences, seconds, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="+", type=Path, help="corpus files (one paragraph per line)")
    parser.add_argument("--paragraphs", type=int, default=5400, help="base size in paragraphs (~20,000 sentences)")
    parser.add_argument("--scale", type=int, default=10, help="the memory run is this many times larger")
    args = parser.parse_args()

    paragraphs = first_paragraphs(args.corpus, args.paragraphs * args.scale)
    if len(paragraphs) < args.paragraphs * args.scale:
        raise SystemExit(f"only {len(paragraphs)} paragraphs in the corpus; give more files or a smaller --scale")
    shard_size = max(1, args.paragraphs // 8)
    with tempfile.TemporaryDirectory() as folder:
        small, large = Path(folder) / "small.txt", Path(folder) / "large.txt"
        small.write_text("".join(f"{p}\n" for p in paragraphs[: args.paragraphs]), encoding="utf-8")
        large.write_text("".join(f"{p}\n" for p in paragraphs), encoding="utf-8")

        plain_sentences, plain_seconds = plain_pipe(small)
        one_sentences, one_seconds, _ = extract(small, 1, shard_size)
        two_sentences, two_seconds, small_peak = extract(small, 2, shard_size)
        large_sentences, large_seconds, large_peak = extract(large, 2, shard_size)

    print(f"plain nlp.pipe      : {plain_sentences:>8,} sentences in {plain_seconds:7.1f} s")
    print(f"extract, 1 worker   : {one_sentences:>8,} sentences in {one_seconds:7.1f} s")
    for sentences, seconds, peak in (
        (two_sentences, two_seconds, small_peak),
        (large_sentences, large_seconds, large_peak),
    ):
        print(f"extract, 2 workers  : {sentences:>8,} sentences in {seconds:7.1f} s, peak RSS {peak / 2**20:,.0f} MiB")
    overhead = (one_sentences / one_seconds) / (plain_sentences / plain_seconds)
    print(f"1. throughput extract (1 worker) / plain nlp.pipe : {overhead:.2f}  (target >= 0.8)")
    print(f"2. speed-up 2 workers / 1 worker                  : {one_seconds / two_seconds:.2f}  (target >= 1.6)")
    ratio = large_peak / small_peak
    print(f"3. peak RSS {large_sentences:,} / {two_sentences:,} sentences : {ratio:.2f}  (target <= 1.1)")


if __name__ == "__main__":
    main()

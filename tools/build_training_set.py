"""Rebuild the bundled training set (data/training/) from the Wikipedia corpus described in data/PROVENANCE.md.

Usage: python tools/build_training_set.py CORPUS_DIR [--scratch DIR] [--files N] [--workers N]

Parses the first N files (sorted by name) of CORPUS_DIR into a scratch folder (rerun the same command to
resume after an interruption), then writes triples, training pairs and manifest into data/training/.
"""

import argparse
import shutil
import signal
import sys
import time
from pathlib import Path

from plausibility.corpus.pipeline import (
    MANIFEST_FILE,
    PAIRS_FILE,
    TRIPLES_FILE,
    extract_corpus,
    write_training_pairs,
)
from plausibility.corpus.shards import ShardResult

# The bundled set: every file of the corpus, words seen at least 5 times in their position, no triple counted
# more than 10 times (the study behind both is in its section of data/PROVENANCE.md).
FILES = 23
MIN_COUNT = 5
MAX_REPEAT = 10
SEED = 0
SHARD_SIZE = 1000


def _terminate(signum: int, frame: object) -> None:
    # SIGTERM as KeyboardInterrupt: the worker pool shuts down and finished shards stay for the rerun.
    raise KeyboardInterrupt


def main() -> int:
    signal.signal(signal.SIGTERM, _terminate)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="folder of enwiki-core-NN.txt.xz files")
    parser.add_argument("--scratch", type=Path, default=Path("outputs/training-build"))
    parser.add_argument("--target", type=Path, default=Path(__file__).resolve().parents[1] / "data" / "training")
    parser.add_argument("--files", type=int, default=FILES)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--min-count", type=int, default=MIN_COUNT)
    parser.add_argument("--max-repeat", type=int, default=MAX_REPEAT)
    args = parser.parse_args()

    inputs = sorted(args.corpus.glob("*.txt.xz"))[: args.files]
    started = time.monotonic()
    sentences = 0

    def report(result: ShardResult) -> None:
        nonlocal sentences
        sentences += result.sentences
        elapsed = time.monotonic() - started
        print(
            f"{elapsed:8.0f}s shard {result.key}: {sentences} sentences this run, {sentences / elapsed:.0f}/s",
            flush=True,
        )

    extraction = extract_corpus(
        inputs,
        args.scratch,
        workers=args.workers,
        shard_size=SHARD_SIZE,
        min_count=args.min_count,
        max_repeat=args.max_repeat,
        on_shard=report,
    )
    write_training_pairs(args.scratch, seed=SEED)
    args.target.mkdir(parents=True, exist_ok=True)
    for name in (TRIPLES_FILE, PAIRS_FILE, MANIFEST_FILE):
        shutil.copyfile(args.scratch / name, args.target / name)
    print(
        f"done in {time.monotonic() - started:.0f}s: {extraction.sentences} sentences, "
        f"{[(step.step, step.occurrences, step.unique) for step in extraction.steps]}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

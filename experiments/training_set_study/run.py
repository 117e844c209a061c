"""Study the bundled set's frequency threshold and cap on parsed shards: size, vocabulary and coverage.

Usage: python experiments/training_set_study/run.py SCRATCH [--min-counts 5,10,20] [--max-repeats 10,20]

SCRATCH is the folder `tools/build_training_set.py` parsed into. For every threshold and cap it prints one
markdown row: occurrences (training pairs), unique events, how many subjects, verbs and objects survive, and
the share of the distinct verbs, subjects and objects of the Pep-3k and 20Q **valid** halves that the set holds
(the choice is made on the valid halves; the words are compared as the sets write them, lower-cased).
"""

import argparse
import sys
from collections import Counter
from pathlib import Path

from plausibility.benchmarks.datasets import DATASET_TITLES, DATASETS, load_plausibility_set
from plausibility.corpus.filters import filter_triples
from plausibility.corpus.pipeline import SHARDS_FOLDER
from plausibility.corpus.shards import ShardStore
from plausibility.triple import Triple

SLOTS = ("verb", "subject", "object")


def merged_counts(scratch: Path) -> tuple[Counter[Triple], int]:
    """Every parsed shard's triple counts summed, and the sentences they came from."""
    store = ShardStore.reopen(scratch / SHARDS_FOLDER)
    counts: Counter[Triple] = Counter()
    sentences = 0
    for key in store.stored_keys():
        result = store.load(key)
        counts.update(result.counts)
        sentences += result.sentences
    return counts, sentences


def valid_words() -> dict[str, dict[str, set[str]]]:
    """The distinct words of each valid half, per slot."""
    words = {}
    for name in DATASETS:
        events = load_plausibility_set(name, "valid")
        words[name] = {slot: {getattr(event.triple, slot) for event in events} for slot in SLOTS}
    return words


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scratch", type=Path, help="folder that tools/build_training_set.py parsed into")
    parser.add_argument("--min-counts", default="5,10,20", help="comma-separated thresholds")
    parser.add_argument("--max-repeats", default="10,20", help="comma-separated caps")
    args = parser.parse_args()

    counts, sentences = merged_counts(args.scratch)
    evaluation = valid_words()
    print(f"{sentences:,} sentences, {sum(counts.values()):,} extracted occurrences ({len(counts):,} unique)\n")
    coverage_columns = [f"{DATASET_TITLES[name]} {slot}s" for name in DATASETS for slot in SLOTS]
    header = ["min count", "cap", "pairs", "unique events", "subjects", "verbs", "objects", *coverage_columns]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for min_count in (int(value) for value in args.min_counts.split(",")):
        for max_repeat in (int(value) for value in args.max_repeats.split(",")):
            kept, steps = filter_triples(counts, min_count, max_repeat)
            vocabulary = {slot: {getattr(triple, slot) for triple in kept} for slot in SLOTS}
            shares = [
                len(evaluation[name][slot] & vocabulary[slot]) / len(evaluation[name][slot])
                for name in DATASETS
                for slot in SLOTS
            ]
            row = [
                str(min_count),
                str(max_repeat),
                f"{steps[-1].occurrences:,}",
                f"{steps[-1].unique:,}",
                *(f"{len(vocabulary[slot]):,}" for slot in ("subject", "verb", "object")),
                *(f"{share:.0%}" for share in shares),
            ]
            print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

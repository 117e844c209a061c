"""Benchmark: whole-sentence scoring, ours against minicons' IncrementalLMScorer.sequence_score, on SynEval.

Both tools score the same model object on the same sentences (no shared context): the good and the bad
sentence of the first `--pairs` SynEval pairs (default 2,016 pairs, 4,032 sentences: 400 long-VP
coordination and 1,616 NPI-across-animacy pairs). Both score every token after the same start token
(ours: `<|endoftext|>`; minicons: the tokenizer's BOS, set to that token, with `bos_token=True`).
Prints the largest absolute difference of the sentence log-probabilities (natural log, summed over
tokens), each tool's throughput from interleaved runs, and the ratio ours/minicons.

    .venv/bin/python bench/sentence_scorer.py [--lm NAME_OR_PATH] [--batch-size 32] [--repeats 3] [--pairs N]
"""

import argparse
import gzip
import json
from itertools import islice
from pathlib import Path

import numpy as np
from compare import add_arguments, interleaved, report, scorers

from plausibility.resources.paths import data_dir


def syneval_sentences(path: Path, pairs: int) -> list[str]:
    """The good then the bad sentence of each of the first `pairs` pairs."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in islice(lines, pairs)]
    return [sentence for row in rows for sentence in (row["sentence_good"], row["sentence_bad"])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--pairs", type=int, default=2016, help="the first N SynEval pairs (2 sentences each)")
    args = parser.parse_args()

    sentences = syneval_sentences(data_dir() / "minimal_pairs" / "syneval" / "syneval.jsonl.gz", args.pairs)
    ours, theirs = scorers(args)

    def run_ours() -> np.ndarray:
        return ours.text_logprob(sentences)

    def run_theirs() -> np.ndarray:
        scores: list[float] = []
        for begin in range(0, len(sentences), args.batch_size):
            scores += theirs.sequence_score(
                sentences[begin : begin + args.batch_size], reduction=lambda x: x.sum(0).item(), bos_token=True
            )
        return np.array(scores)

    our_timings, their_timings = interleaved(run_ours, run_theirs, args.repeats)
    n = len(sentences)
    print(f"sentences: {n} (good and bad of the first {args.pairs} SynEval pairs), scored whole after the start token")
    print(f"max |ours - minicons| sentence log-prob: {np.abs(our_timings.scores - their_timings.scores).max():.2e}")
    report(args, n, "sentences", our_timings, their_timings)


if __name__ == "__main__":
    main()

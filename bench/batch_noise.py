"""How far a score moves when an event is scored beside others instead of alone (float rounding, not a bug).

A language model scores a batch of texts in one forward pass: padding to the longest text and the matrix
kernels chosen for the batch's size move float32 sums in their last bits, so an event's score depends, by that
much, on what else is in the request. This scores each of `--events` Pep-3k valid events alone, then beside one
other (events 1 and 2 in one call, 3 and 4 in the next, ...), then all in one call, for each `--model`, and
prints the largest difference from alone in score and in probability. Run it once with
the machine's threads and once under `OMP_NUM_THREADS=1` to see the spread a thread count adds.

    .venv/bin/python bench/batch_noise.py [--events 200] [--models default,conceptmax,ngram]
"""

import argparse

import numpy as np
import torch

from plausibility import load_scorer
from plausibility.benchmarks.datasets import load_plausibility_set


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--models", default="default,conceptmax,ngram")
    args = parser.parse_args()
    triples = [event.triple for event in load_plausibility_set("pep3k", "valid")[: args.events]]
    print(f"{len(triples)} Pep-3k valid events, {torch.get_num_threads()} torch threads")
    print("model        beside   max |score - alone|   max |probability - alone|")
    for name in args.models.split(","):
        scorer = load_scorer(name)
        alone = np.concatenate([scorer.score([t]) for t in triples])
        in_pairs = np.concatenate([scorer.score(triples[i : i + 2]) for i in range(0, len(triples), 2)])
        for beside, scores in (("one", in_pairs), ("all", scorer.score(triples))):
            score_gap = np.abs(scores - alone).max()
            probability_gap = np.abs(scorer.to_probability(scores) - scorer.to_probability(alone)).max()
            print(f"{name:<12} {beside:<6} {score_gap:>21.2e}   {probability_gap:>25.2e}")


if __name__ == "__main__":
    main()

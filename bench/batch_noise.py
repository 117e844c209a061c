"""How far a score moves when an event is scored beside others instead of alone (float rounding, not a bug).

A language model scores a batch of texts in one forward pass: padding to the longest text and the matrix
kernels chosen for the batch's size move float32 sums in their last bits, so an event's score depends, by that
much, on what else is in the request. This scores each of `--events` Pep-3k valid events alone and then all in
one call, for each `--model`, and prints the largest difference in score and in probability. Run it once with
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
    print("model        max |score alone - together|   max |probability alone - together|")
    for name in args.models.split(","):
        scorer = load_scorer(name)
        alone_scores = np.concatenate([scorer.score([t]) for t in triples])
        alone_probabilities = np.concatenate([scorer.probability([t]) for t in triples])
        together_scores, together_probabilities = scorer.score(triples), scorer.probability(triples)
        score_gap = np.abs(alone_scores - together_scores).max()
        probability_gap = np.abs(alone_probabilities - together_probabilities).max()
        print(f"{name:<12} {score_gap:>30.2e}   {probability_gap:>34.2e}")


if __name__ == "__main__":
    main()

"""Benchmark: our causal scorer against minicons' IncrementalLMScorer on the LIEDER base stimuli.

Both tools score the same model object on the same (context, continuation) pairs: each stimulus is
split before its last sentence, which is the continuation. Prints the largest absolute difference of
the continuation log-probabilities (natural log, summed over tokens) and the throughput of each.

    .venv/bin/python bench/scorer.py [--lm NAME_OR_PATH] [--batch-size 32] [--repeats 3] [--limit N]
"""

import argparse
import json
import re
from pathlib import Path

import numpy as np
from compare import add_arguments, interleaved, report, scorers

from plausibility.resources.paths import data_dir

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def lieder_pairs(path: Path) -> tuple[list[str], list[str]]:
    """Contexts (all sentences but the last) and continuations (the last sentence) of each stimulus."""
    contexts, continuations = [], []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            *context, continuation = _SENTENCE_END.split(json.loads(line)["sent"].strip())
            contexts.append(" ".join(context))
            continuations.append(continuation)
    return contexts, continuations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--limit", type=int, help="only the first N pairs (quick checks; the figure uses all)")
    args = parser.parse_args()

    contexts, continuations = lieder_pairs(data_dir() / "minimal_pairs" / "lieder" / "base_stimuli.jsonl")
    contexts, continuations = contexts[: args.limit], continuations[: args.limit]
    ours, theirs = scorers(args)

    def run_ours() -> np.ndarray:
        return ours.conditional_logprob(contexts, continuations)

    def run_theirs() -> np.ndarray:
        scores: list[float] = []
        for begin in range(0, len(contexts), args.batch_size):
            scores += theirs.conditional_score(
                contexts[begin : begin + args.batch_size],
                continuations[begin : begin + args.batch_size],
                reduction=lambda x: x.sum(0).item(),
                bos_token=True,  # the same beginning-of-sequence token ours prepends
            )
        return np.array(scores)

    our_timings, their_timings = interleaved(run_ours, run_theirs, args.repeats)
    n = len(contexts)
    print(f"stimuli: {n} LIEDER base pairs (context = first sentence(s), continuation = last sentence)")
    print(f"max |ours - minicons| continuation log-prob: {np.abs(our_timings.scores - their_timings.scores).max():.2e}")
    report(args, n, "pairs", our_timings, their_timings)


if __name__ == "__main__":
    main()

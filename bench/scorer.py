"""Benchmark: our causal scorer against minicons' IncrementalLMScorer on the LIEDER base stimuli.

Both tools score the same model object on the same (context, continuation) pairs: each stimulus is
split before its last sentence, which is the continuation. Prints the largest absolute difference of
the continuation log-probabilities (natural log, summed over tokens) and the throughput of each.

    .venv/bin/python bench/scorer.py [--lm NAME_OR_PATH] [--batch-size 32] [--repeats 3] [--limit N]
"""

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from minicons.scorer import IncrementalLMScorer

from plausibility.resources import DEFAULT_CAUSAL_LM, data_dir
from plausibility.scoring.causal import CausalLMScorer, start_token_id

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


def timed(run: Callable[[], np.ndarray]) -> tuple[float, float, np.ndarray]:
    """Wall-clock and CPU seconds of one run, and the scores it gave.

    CPU time is the steadier measure on a shared machine: other processes stretch wall-clock time but
    not the work this process does.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    scores = run()
    return time.perf_counter() - wall, time.process_time() - cpu, scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lm", default=DEFAULT_CAUSAL_LM, help="causal LM id or folder (default: offline LM)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3, help="interleaved timed runs of each tool")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, help="torch CPU threads (default: torch's choice)")
    parser.add_argument("--limit", type=int, help="only the first N pairs (quick checks; the figure uses all)")
    args = parser.parse_args()

    contexts, continuations = lieder_pairs(data_dir() / "minimal_pairs" / "lieder" / "base_stimuli.jsonl")
    contexts, continuations = contexts[: args.limit], continuations[: args.limit]
    if args.threads:
        torch.set_num_threads(args.threads)
    ours = CausalLMScorer(args.lm, batch_size=args.batch_size, device=args.device)
    # minicons prepends the tokenizer's BOS: name ours as BOS so both score after the same start token.
    ours.tokenizer.bos_token = ours.tokenizer.convert_ids_to_tokens(start_token_id(ours.tokenizer))
    theirs = IncrementalLMScorer(ours.model, device=args.device, tokenizer=ours.tokenizer)

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

    # Interleaved runs, the fastest of each kept: load from other processes then hits both tools alike.
    ours_wall, ours_cpu, theirs_wall, theirs_cpu = [], [], [], []
    for repeat in range(args.repeats):
        wall, cpu, our_scores = timed(run_ours)
        ours_wall.append(wall)
        ours_cpu.append(cpu)
        wall, cpu, their_scores = timed(run_theirs)
        theirs_wall.append(wall)
        theirs_cpu.append(cpu)
        print(
            f"run {repeat + 1}: ours {ours_wall[-1]:.2f} s ({ours_cpu[-1]:.2f} s CPU), "
            f"minicons {theirs_wall[-1]:.2f} s ({theirs_cpu[-1]:.2f} s CPU)",
            file=sys.stderr,
            flush=True,
        )
    n = len(contexts)
    print(f"model: {args.lm} on {args.device} ({torch.get_num_threads()} threads), batch size {args.batch_size}")
    print(f"stimuli: {n} LIEDER base pairs (context = first sentence(s), continuation = last sentence)")
    print(f"max |ours - minicons| continuation log-prob: {np.abs(our_scores - their_scores).max():.2e}")
    for name, wall, cpu in (("ours", ours_wall, ours_cpu), ("minicons", theirs_wall, theirs_cpu)):
        print(f"{name + ':':10}{min(wall):8.2f} s wall ({n / min(wall):6.1f} pairs/s), {min(cpu):8.2f} s CPU")
    print(
        f"throughput ratio ours/minicons: {min(theirs_wall) / min(ours_wall):.2f}x wall-clock, "
        f"{min(theirs_cpu) / min(ours_cpu):.2f}x CPU time"
    )


if __name__ == "__main__":
    main()

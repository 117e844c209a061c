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
import sys
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path

import numpy as np
import torch
from minicons.scorer import IncrementalLMScorer

from plausibility.resources import DEFAULT_CAUSAL_LM, data_dir
from plausibility.scoring.causal import CausalLMScorer, start_token_id


def syneval_sentences(path: Path, pairs: int) -> list[str]:
    """The good then the bad sentence of each of the first `pairs` pairs."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in islice(lines, pairs)]
    return [sentence for row in rows for sentence in (row["sentence_good"], row["sentence_bad"])]


def timed(run: Callable[[], np.ndarray]) -> tuple[float, float, np.ndarray]:
    """Wall-clock and CPU seconds of one run, and the scores it gave (CPU time is steadier on a shared machine)."""
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
    parser.add_argument("--pairs", type=int, default=2016, help="the first N SynEval pairs (2 sentences each)")
    args = parser.parse_args()

    sentences = syneval_sentences(data_dir() / "minimal_pairs" / "syneval" / "syneval.jsonl.gz", args.pairs)
    if args.threads:
        torch.set_num_threads(args.threads)
    ours = CausalLMScorer(args.lm, batch_size=args.batch_size, device=args.device)
    # minicons prepends the tokenizer's BOS: name ours as BOS so both score after the same start token.
    ours.tokenizer.bos_token = ours.tokenizer.convert_ids_to_tokens(start_token_id(ours.tokenizer))
    theirs = IncrementalLMScorer(ours.model, device=args.device, tokenizer=ours.tokenizer)

    def run_ours() -> np.ndarray:
        return ours.text_logprob(sentences)

    def run_theirs() -> np.ndarray:
        scores: list[float] = []
        for begin in range(0, len(sentences), args.batch_size):
            scores += theirs.sequence_score(
                sentences[begin : begin + args.batch_size], reduction=lambda x: x.sum(0).item(), bos_token=True
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
    n = len(sentences)
    print(f"model: {args.lm} on {args.device} ({torch.get_num_threads()} threads), batch size {args.batch_size}")
    print(f"sentences: {n} (good and bad of the first {args.pairs} SynEval pairs), scored whole after the start token")
    print(f"max |ours - minicons| sentence log-prob: {np.abs(our_scores - their_scores).max():.2e}")
    for name, wall, cpu in (("ours", ours_wall, ours_cpu), ("minicons", theirs_wall, theirs_cpu)):
        print(f"{name + ':':10}{min(wall):8.2f} s wall ({n / min(wall):7.1f} sentences/s), {min(cpu):8.2f} s CPU")
    print(
        f"throughput ratio ours/minicons: {min(theirs_wall) / min(ours_wall):.2f}x wall-clock, "
        f"{min(theirs_cpu) / min(ours_cpu):.2f}x CPU time"
    )


if __name__ == "__main__":
    main()

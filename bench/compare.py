"""Timing our scorer against minicons on one workload: interleaved runs, the fastest of each kept."""

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch
from minicons.scorer import IncrementalLMScorer

from plausibility.lm.causal import CausalLMScorer, start_token_id
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every comparison takes: the model, its batch size and device, repeats, threads."""
    parser.add_argument("--lm", default=DEFAULT_CAUSAL_LM, help="causal LM id or folder (default: offline LM)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3, help="interleaved timed runs of each tool")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, help="torch CPU threads (default: torch's choice)")


def scorers(args: argparse.Namespace) -> tuple[CausalLMScorer, IncrementalLMScorer]:
    """Our scorer and minicons' on the same model object, both scoring after the same start token."""
    if args.threads:
        torch.set_num_threads(args.threads)
    ours = CausalLMScorer(args.lm, batch_size=args.batch_size, device=args.device)
    # minicons prepends the tokenizer's BOS (with bos_token=True): name ours as BOS.
    ours.tokenizer.bos_token = ours.tokenizer.convert_ids_to_tokens(start_token_id(ours.tokenizer))
    return ours, IncrementalLMScorer(ours.model, device=args.device, tokenizer=ours.tokenizer)


@dataclass
class Timings:
    """One tool's wall-clock and CPU seconds per run, and the scores of its last run."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    scores: np.ndarray = field(default_factory=lambda: np.empty(0))

    def run(self, score: Callable[[], np.ndarray]) -> None:
        """Time one run; CPU time is the steadier measure on a shared machine (others stretch wall-clock time)."""
        wall, cpu = time.perf_counter(), time.process_time()
        self.scores = score()
        self.wall.append(time.perf_counter() - wall)
        self.cpu.append(time.process_time() - cpu)


def interleaved(
    ours: Callable[[], np.ndarray], theirs: Callable[[], np.ndarray], repeats: int
) -> tuple[Timings, Timings]:
    """Alternate runs of both tools, so that load from other processes hits both alike."""
    our_timings, their_timings = Timings(), Timings()
    for repeat in range(repeats):
        our_timings.run(ours)
        their_timings.run(theirs)
        print(
            f"run {repeat + 1}: ours {our_timings.wall[-1]:.2f} s ({our_timings.cpu[-1]:.2f} s CPU), "
            f"minicons {their_timings.wall[-1]:.2f} s ({their_timings.cpu[-1]:.2f} s CPU)",
            file=sys.stderr,
            flush=True,
        )
    return our_timings, their_timings


def report(args: argparse.Namespace, n: int, unit: str, ours: Timings, theirs: Timings) -> None:
    """The model, each tool's fastest run, its throughput in `unit` per second, and the ratio ours/minicons."""
    print(f"model: {args.lm} on {args.device} ({torch.get_num_threads()} threads), batch size {args.batch_size}")
    for name, timings in (("ours", ours), ("minicons", theirs)):
        wall, cpu = min(timings.wall), min(timings.cpu)
        print(f"{name + ':':10}{wall:8.2f} s wall ({n / wall:7.1f} {unit}/s), {cpu:8.2f} s CPU")
    print(
        f"throughput ratio ours/minicons: {min(theirs.wall) / min(ours.wall):.2f}x wall-clock, "
        f"{min(theirs.cpu) / min(ours.cpu):.2f}x CPU time"
    )

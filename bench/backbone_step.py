"""Benchmark: one training step of the classifier on each backbone, against the offline MiniLM in the same run.

A step is a forward and backward pass and an AdamW update on a batch of the bundled training pairs
(attested events and their pseudo-negatives). The baseline is the default backbone, all-MiniLM-L6-v2 read
at its first token; the others are the offline causal LM read at its last token, trained whole and with only
its top blocks trained. The figure is the median of the steps after a warm-up one.

    .venv/bin/python bench/backbone_step.py [--pairs 16] [--steps 6] [--top-blocks 8]
"""

import argparse
import statistics
import time

import torch

from plausibility.models.components.classifier import TripleClassifier
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM
from plausibility.resources.encoder import DEFAULT_ENCODER
from plausibility.resources.paths import bundled_pairs
from plausibility.scorers.calibration import calibration_slice
from plausibility.triple import Triple


def step_seconds(net: TripleClassifier, events: list[Triple], labels: torch.Tensor, steps: int) -> float:
    """Median wall time of a training step, after one warm-up step."""
    optimizer = torch.optim.AdamW([p for p in net.parameters() if p.requires_grad], lr=1e-4)
    features = net.featurize(events)
    times = []
    for _ in range(steps + 1):
        started = time.perf_counter()
        loss = torch.nn.functional.binary_cross_entropy_with_logits(net(**features), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        times.append(time.perf_counter() - started)
    return statistics.median(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=16, help="pairs per batch (twice as many events)")
    parser.add_argument("--steps", type=int, default=6, help="timed steps per backbone")
    parser.add_argument("--top-blocks", type=int, default=8, help="blocks trained in the partly frozen run")
    args = parser.parse_args()
    torch.manual_seed(0)
    # the seeded slice calibration reads: attested events and their pseudo-negatives, labelled 1 and 0
    events, labels, _ = calibration_slice(bundled_pairs(), args.pairs)
    targets = torch.tensor(labels, dtype=torch.float32)
    runs = {
        f"{DEFAULT_ENCODER} (baseline)": dict(backbone=DEFAULT_ENCODER),
        f"{DEFAULT_CAUSAL_LM}, every block": dict(backbone=DEFAULT_CAUSAL_LM, pooling="last"),
        f"{DEFAULT_CAUSAL_LM}, top {args.top_blocks} blocks": dict(
            backbone=DEFAULT_CAUSAL_LM, pooling="last", trainable_layers=args.top_blocks
        ),
    }
    baseline = None
    for name, options in runs.items():
        net = TripleClassifier(**options)
        trained = sum(p.numel() for p in net.parameters() if p.requires_grad) / 1e6
        seconds = step_seconds(net, events, targets, args.steps)
        baseline = baseline or seconds
        print(
            f"{name}: {seconds:.3f} s per step of {len(events)} events, {trained:.1f}M trained, "
            f"{seconds / baseline:.1f}x the baseline"
        )


if __name__ == "__main__":
    main()

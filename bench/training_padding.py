"""Benchmark: training examples/s with dynamic padding vs fixed padding to 16 tokens.

Fixed padding to 16 tokens is the reference implementation's collation; dynamic padding pads each batch
to its longest event. Both run the same optimisation steps (forward, backward, AdamW) of the RoBERTa
classifier on the same batches of training pairs, alternating to share the machine's load fairly.

    .venv/bin/python bench/training_padding.py [--pairs training/pairs.parquet] [--steps 30] [--batch-size 64]
"""

import argparse
import json
import time

import pyarrow.parquet as pq
import torch
import torch.nn.functional as F

from plausibility.models.components.classifier import TripleClassifier
from plausibility.models.datamodule import resolve_data_path
from plausibility.resources.encoder import DEFAULT_ENCODER
from plausibility.triple import Triple


def read_events(pairs: str, count: int, seed: int) -> list[tuple[Triple, Triple]]:
    table = pq.read_table(resolve_data_path(pairs)).to_pandas().sample(n=count, replace=True, random_state=seed)
    return [
        (Triple(r.subject, r.verb, r.object), Triple(r.negative_subject, r.negative_verb, r.negative_object))
        for r in table.itertuples()
    ]


def train_step(net: TripleClassifier, optimizer: torch.optim.Optimizer, batch: list, pad_to: int | None) -> int:
    events = [positive for positive, _ in batch] + [negative for _, negative in batch]
    features = net.featurize(events, pad_to=pad_to)
    logits = net(**features)
    labels = torch.cat([torch.ones(len(batch)), torch.zeros(len(batch))])
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return int(features["input_ids"].shape[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default="training/pairs.parquet")
    parser.add_argument("--backbone", default=DEFAULT_ENCODER)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    torch.manual_seed(0)
    pairs = read_events(args.pairs, args.steps * args.batch_size, seed=0)
    batches = [pairs[i : i + args.batch_size] for i in range(0, len(pairs), args.batch_size)]
    nets = {name: TripleClassifier(args.backbone) for name in ("dynamic", "fixed16")}
    optimizers = {name: torch.optim.AdamW(net.parameters(), lr=5e-5) for name, net in nets.items()}
    seconds = {"dynamic": 0.0, "fixed16": 0.0}
    lengths: dict[str, list[int]] = {"dynamic": [], "fixed16": []}
    for name, pad_to in (("dynamic", None), ("fixed16", 16)):  # one warm-up step each
        train_step(nets[name], optimizers[name], batches[0], pad_to)
    for batch in batches:
        for name, pad_to in (("dynamic", None), ("fixed16", 16)):
            start = time.perf_counter()
            lengths[name].append(train_step(nets[name], optimizers[name], batch, pad_to))
            seconds[name] += time.perf_counter() - start
    examples = 2 * len(pairs)  # each pair is two training events
    rates = {name: examples / seconds[name] for name in seconds}
    report = {
        "backbone": args.backbone,
        "steps": len(batches),
        "batch_pairs": args.batch_size,
        "examples_per_s": {name: round(rate, 1) for name, rate in rates.items()},
        "mean_padded_length": {name: round(sum(v) / len(v), 2) for name, v in lengths.items()},
        "ratio_dynamic_over_fixed16": round(rates["dynamic"] / rates["fixed16"], 2),
        "threads": torch.get_num_threads(),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

"""Benchmark: ConceptMax inference events/s on Pep-3k test, deduplicated vs naive per-event grids.

Both wrap the same scorer (a trained checkpoint, or the untrained MiniLM classifier: speed does not
depend on the weights) and the same lexicon; the naive run scores each event's grid by its own call.
Checks that both give the same scores.

    .venv/bin/python bench/concept_max_dedup.py [--model runs/concept_max/checkpoints/last.ckpt] [--limit 300]
"""

import argparse
import json
import time

import numpy as np

from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.lexicon.training_lexicon import lexicon_of
from plausibility.models.components.classifier import TripleClassifier
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.net import NetScorer
from plausibility.scorers.registry import build_scorer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a checkpoint or SPEC; default: the untrained MiniLM classifier")
    parser.add_argument("--limit", type=int, help="only the first N events (the naive run is slow on 2 cores)")
    args = parser.parse_args()
    scorer = build_scorer(args.model) if args.model else NetScorer(TripleClassifier())
    if isinstance(scorer, ConceptMax):
        scorer = scorer.searched
    lexicon = lexicon_of(scorer.lexicon)
    events = [event.triple for event in load_plausibility_set("pep3k", "test")][: args.limit]
    grids = lexicon.abstractor.grids(events)
    total = sum(len(grid.triples()) for grid in grids)
    unique = len({triple for grid in grids for triple in grid.triples()})
    results, seconds = {}, {}
    for name, deduplicate in (("deduplicated", True), ("naive", False)):
        start = time.perf_counter()
        results[name] = ConceptMax(scorer, lexicon, deduplicate=deduplicate).score(events)
        seconds[name] = time.perf_counter() - start
    report = {
        "model": args.model or "untrained MiniLM classifier",
        "events": len(events),
        "abstractions": total,
        "unique_abstractions": unique,
        "events_per_s": {name: round(len(events) / s, 1) for name, s in seconds.items()},
        "speedup": round(seconds["naive"] / seconds["deduplicated"], 2),
        "max_abs_difference": float(np.max(np.abs(results["naive"] - results["deduplicated"]))),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

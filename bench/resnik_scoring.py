"""Benchmark: Resnik scoring triples/s on Pep-3k and 20Q, against the per-triple definition and the n-gram scorer.

All three score the same events (both halves of both sets, 8,158 triples) and are fitted on the bundled
training triples. The definition is thesis eq. 2.10 written out: for each triple and slot, the largest
`A(v, c)` over every class on every chain of the argument, looked up in the verb's row (0 for a class the
verb was never seen with). Resnik is timed cold (a fresh scorer: chains not yet read from WordNet, as in
one `plausibility evaluate`) and warm (the same scorer again). Checks that Resnik equals the definition.

    .venv/bin/python bench/resnik_scoring.py [--repeats 3]
"""

import argparse
import json
import time
from collections.abc import Callable, Sequence

import numpy as np

from plausibility.baselines.resnik import ResnikScorer, SlotAssociation
from plausibility.benchmarks.datasets import DATASETS, SPLITS, load_plausibility_set
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple


def definition(scorer: ResnikScorer) -> Callable[[Sequence[Triple]], np.ndarray]:
    """Eq. 2.10 per triple over plain dicts: `max_c A(v, c)` per slot, summed (the reference)."""
    rows: dict[tuple[int, str], dict[str, float]] = {}

    def slot_score(slot: SlotAssociation, verb: str, noun: str) -> float:
        chains = scorer.sense_chains(noun)
        if verb not in slot.verbs or not chains:
            return 0.0
        if (id(slot), verb) not in rows:
            rows[id(slot), verb] = slot.row(verb)
        row = rows[id(slot), verb]
        return max(row.get(name, 0.0) for chain in chains for name in chain)

    def score(triples: Sequence[Triple]) -> np.ndarray:
        return np.array(
            [
                slot_score(scorer.subject, triple.verb, triple.subject)
                + slot_score(scorer.object, triple.verb, triple.object)
                for triple in triples
            ]
        )

    return score


def timed(run: Callable[[], np.ndarray]) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    scores = run()
    return time.perf_counter() - start, scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="timed runs of each; the fastest is kept")
    args = parser.parse_args()
    triples = [event.triple for name in DATASETS for split in SPLITS for event in load_plausibility_set(name, split)]
    ngram = build_scorer("uncalibrated:ngram")
    seconds: dict[str, list[float]] = {"resnik cold": [], "resnik warm": [], "definition": [], "ngram": []}
    for _ in range(args.repeats):
        scorer = build_scorer("uncalibrated:resnik")  # fresh: no noun's chains read yet
        wall, cold = timed(lambda: scorer.score(triples))  # noqa: B023 (called at once)
        seconds["resnik cold"].append(wall)
        wall, warm = timed(lambda: scorer.score(triples))  # noqa: B023
        seconds["resnik warm"].append(wall)
        wall, reference = timed(lambda: definition(scorer)(triples))  # noqa: B023 (chains already cached)
        seconds["definition"].append(wall)
        seconds["ngram"].append(timed(lambda: ngram.score(triples))[0])
    report = {
        "triples": len(triples),
        "triples_per_s": {name: round(len(triples) / min(runs), 1) for name, runs in seconds.items()},
        "speedup_warm_over_definition": round(min(seconds["definition"]) / min(seconds["resnik warm"]), 2),
        "max_abs_difference": float(max(np.abs(cold - reference).max(), np.abs(warm - reference).max())),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()

"""Search the weights of an ensemble on the valid halves of Pep-3k and 20Q, and print the best as a SPEC.

Each member is scored once per valid half (its calibrated log-odds, as `ensemble:` averages them); then every
combination of weights from the grid is tried, and the one with the highest mean valid AUC is printed as an
`ensemble:` SPEC (weight 0 drops a member; weights are scaled so the smallest is 1). Test halves are never
looked at: give the printed SPEC to `scripts/choose_default_scorer.py --candidate` and measure its test AUC
once with `plausibility evaluate`.

    python scripts/ensemble_weights.py conceptmax roberta zero-shot ngram resnik --grid 0,0.5,1,1.5,2
"""

import argparse
import itertools
import time

import numpy as np

from plausibility.evaluation.datasets import DATASETS, load_plausibility_set
from plausibility.evaluation.intervals import rank_auc
from plausibility.scorers import load_scorer
from plausibility.scorers.spec import ScorerSpec, parse_spec


def weighted_spec(members: list[ScorerSpec], weights: tuple[float, ...]) -> str:
    """The `ensemble:` SPEC of the members with a nonzero weight, the smallest weight scaled to 1 (or the one)."""
    kept = [(weight, member) for weight, member in zip(weights, members, strict=True) if weight > 0]
    if len(kept) == 1:
        return str(kept[0][1])
    smallest = min(weight for weight, _ in kept)
    members_kept = tuple(member for _, member in kept)
    return str(ScorerSpec("ensemble", members=members_kept, weights=tuple(w / smallest for w, _ in kept)))


def weighted_aucs(weights: np.ndarray, log_odds: np.ndarray, labels: np.ndarray, chunk: int = 1000) -> np.ndarray:
    """The AUC of each row of `weights` (weightings, members) applied to `log_odds` (members, events).

    Rank sums of many weightings at once (`rank_auc`), `chunk` rows at a time to bound memory; equal to
    `roc_auc` of each weighting's scores, ties counting one half.
    """
    positive = np.asarray(labels) == 1
    aucs = [
        rank_auc(scores[:, positive], scores[:, ~positive])
        for scores in (rows @ log_odds for rows in np.array_split(weights, max(1, len(weights) // chunk)))
    ]
    return np.concatenate(aucs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("members", nargs="+", metavar="SPEC", help="the scorers to weigh, two or more")
    parser.add_argument("--grid", default="0,0.5,1,1.5,2", help="comma-separated weights tried for each member")
    parser.add_argument("--top", type=int, default=10, help="how many of the best combinations to print")
    args = parser.parse_args()
    grid = sorted({float(weight) for weight in args.grid.split(",")})
    started = time.monotonic()
    halves = {dataset: load_plausibility_set(dataset, "valid") for dataset in DATASETS}
    labels = {dataset: [event.label for event in events] for dataset, events in halves.items()}
    ensemble = load_scorer("uncalibrated:ensemble:" + "+".join(args.members))
    log_odds = {dataset: ensemble.member_log_odds([e.triple for e in events]) for dataset, events in halves.items()}
    print(f"scored {len(args.members)} members on the valid halves in {time.monotonic() - started:.0f} s")
    searched = time.monotonic()
    members = [parse_spec(member) for member in args.members]
    weightings: dict[str, tuple[float, ...]] = {}  # by SPEC: weights that differ by a common factor are one ensemble
    for weights in itertools.product(grid, repeat=len(members)):
        if any(weights):
            weightings.setdefault(weighted_spec(members, weights), weights)
    matrix = np.array(list(weightings.values()))
    aucs = {dataset: weighted_aucs(matrix, log_odds[dataset], labels[dataset]) for dataset in DATASETS}
    tried = {
        spec: (float(np.mean([aucs[dataset][row] for dataset in DATASETS])), {d: aucs[d][row] for d in DATASETS})
        for row, spec in enumerate(weightings)
    }
    print(f"measured {len(tried)} weightings in {time.monotonic() - searched:.1f} s")
    ranked = sorted(tried, key=lambda spec: tried[spec][0], reverse=True)
    equal = weighted_spec(members, (1.0,) * len(members))
    for spec in dict.fromkeys([*ranked[: args.top], equal]):
        mean, by_dataset = tried[spec]
        figures = ", ".join(f"{dataset} {auc:.3f}" for dataset, auc in by_dataset.items())
        print(f"mean valid AUC {mean:.4f} ({figures}): {spec}")
    print(f"best: {ranked[0]}")


if __name__ == "__main__":
    main()

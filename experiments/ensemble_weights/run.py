"""Search the weights of an ensemble on the valid halves of Pep-3k and 20Q, and print the best as a SPEC.

Each member is scored once per valid half (its calibrated log-odds, as `ensemble:` averages them); then every
combination of weights from the grid is tried, and the one with the highest mean valid AUC is printed as an
`ensemble:` SPEC (weight 0 drops a member; weights are scaled so the smallest is 1). Test halves are never
looked at: give the printed SPEC to `tools/choose_default_model.py --candidate` and measure its test AUC
once with `plausibility evaluate`.

    python experiments/ensemble_weights/run.py conceptmax roberta zero-shot ngram resnik --grid 0,0.5,1,1.5,2

`--probe 'S V O=1'` (repeatable; `=0` for an implausible event) also prints each probe's calibrated probability
under the best weighting, and the best weighting (with its valid AUC) whose probabilities put every probe on its
side of .5: what it would cost in valid AUC to answer those examples right. Each weighting is calibrated as its
SPEC would be on first use (`calibration_for`: Platt on the held-out scores of the seeded slice of training
pairs). This never changes which weighting is best.
"""

import argparse
import itertools
import time

import numpy as np

import plausibility
from plausibility.benchmarks.datasets import DATASETS, load_plausibility_set
from plausibility.evaluation.intervals import rank_auc
from plausibility.resources.paths import bundled_pairs
from plausibility.scorers.calibration import calibration_slice, fit_platt
from plausibility.scorers.calibration_store import DEFAULT_CALIBRATION_PAIRS
from plausibility.scorers.ensemble import EnsembleScorer
from plausibility.scorers.spec import ScorerSpec, parse_spec
from plausibility.triple import Triple


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


def parse_probe(text: str) -> tuple[Triple, int]:
    """`'S V O=1'` -> (the event, its label); anything else is a usage error."""
    event, _, label = text.rpartition("=")
    if len(event.split()) != 3 or label not in ("0", "1"):
        raise SystemExit(f"--probe {text!r}: give 'S V O=1' for a plausible event or 'S V O=0' for an implausible one")
    return Triple(*event.lower().split()), int(label)


def first_on_their_sides(
    ranked: np.ndarray, slice_log_odds: np.ndarray, slice_labels: list[int], probe_log_odds: np.ndarray, probe_labels
) -> tuple[int, np.ndarray] | None:
    """The first row of `ranked` (weightings, best first) whose calibrated probabilities put every probe on its
    labelled side of .5, with those probabilities; None if no weighting does.

    Each weighting is Platt-calibrated on its own weighted scores of the slice, as its SPEC would be.
    """
    wanted = np.asarray(probe_labels) == 1
    for row, weights in enumerate(ranked):
        calibration = fit_platt(weights @ slice_log_odds, slice_labels, "the calibration slice")
        probabilities = calibration.probability(weights @ probe_log_odds)
        if np.array_equal(probabilities > 0.5, wanted):
            return row, probabilities
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("members", nargs="+", metavar="SPEC", help="the scorers to weigh, two or more")
    parser.add_argument("--grid", default="0,0.5,1,1.5,2", help="comma-separated weights tried for each member")
    parser.add_argument("--top", type=int, default=10, help="how many of the best combinations to print")
    parser.add_argument(
        "--probe", action="append", default=[], metavar="'S V O=L'", help="an event with its label (1 or 0)"
    )
    args = parser.parse_args()
    probes = [parse_probe(text) for text in args.probe]
    grid = sorted({float(weight) for weight in args.grid.split(",")})
    started = time.monotonic()
    halves = {dataset: load_plausibility_set(dataset, "valid") for dataset in DATASETS}
    labels = {dataset: [event.label for event in events] for dataset, events in halves.items()}
    ensemble = plausibility.load_scorer("uncalibrated:ensemble:" + "+".join(args.members)).scorer
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
    if probes:
        report_probes(ensemble, weightings, ranked, tried, probes)


def report_probes(
    ensemble: EnsembleScorer, weightings: dict[str, tuple[float, ...]], ranked: list[str], tried: dict, probes: list
) -> None:
    """The probes under the best weighting, and the best weighting that answers every probe on its side of .5."""
    events, probe_labels = [event for event, _ in probes], [label for _, label in probes]
    slice_events, slice_labels, _ = calibration_slice(bundled_pairs(), DEFAULT_CALIBRATION_PAIRS)
    slice_log_odds = ensemble.member_log_odds(slice_events, held_out=True)
    probe_log_odds = ensemble.member_log_odds(events)
    weights = np.array([weightings[spec] for spec in ranked], dtype=np.float64)
    weights /= weights.sum(axis=1, keepdims=True)  # as `EnsembleScorer` normalises them

    def listing(probabilities: np.ndarray) -> str:
        return ", ".join(f"{event} {p:.3f}" for event, p in zip(events, probabilities, strict=True))

    best = fit_platt(weights[0] @ slice_log_odds, slice_labels, "the calibration slice")
    print(f"probes under the best: {listing(best.probability(weights[0] @ probe_log_odds))}")
    found = first_on_their_sides(weights, slice_log_odds, slice_labels, probe_log_odds, probe_labels)
    if found is None:
        print("no weighting on the grid puts every probe on its side of .5")
        return
    row, probabilities = found
    spec = ranked[row]
    print(f"best with every probe on its side: {spec} (rank {row + 1}, mean valid AUC {tried[spec][0]:.4f}): ", end="")
    print(listing(probabilities))


if __name__ == "__main__":
    main()

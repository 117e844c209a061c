"""Role-reversed hard negatives in ConceptMax's training pairs, measured as the default's two net members.

    python experiments/judgement_benchmarks/levers/hardneg.py pairs 0.25
        writes outputs/judgement_levers/pairs-reversed-0.25.parquet: the bundled pairs with the negative of a
        share of them (drawn with seed 0) replaced by the attested event's role reversal (o, v, s), where that
        reversal is not itself attested, its two nouns differ, and neither order is a `reversals` benchmark pair
    python experiments/judgement_benchmarks/levers/hardneg.py added 0.5
        writes outputs/judgement_levers/pairs-added-0.5.parquet: the bundled pairs, and beside them, for a share of
        them (drawn with seed 0), one more pair of the attested event against its role reversal, on the same
        conditions, where neither the event nor its reversal is an event of any judged set (Pep-3k, 20Q, PAP,
        plain, `reversals`; every half)
    python experiments/judgement_benchmarks/levers/hardneg.py members FOLDER
        writes outputs/judgement_levers/members-FOLDERNAME.npz: `event:FOLDER` and `FOLDER` as calibrated member
        log-odds on every valid event and its reversal, as members.py writes the default's
    python experiments/judgement_benchmarks/levers/hardneg.py compare NAME [NAME ...]
        the default's fixed weights over its members, with the two net members replaced by NAME's, fitted and
        scored as analyse2.py does (folds.py: 5-fold, valid halves only), and the plain accuracy's paired interval
    python experiments/judgement_benchmarks/levers/hardneg.py beside NAME [NAME ...]
        NAME's two net members beside the default's four, one logistic regression over the six log-odds (folds.py),
        against the same regression over the default's four, with the plain half weighing 1, 3, 10 and 25 times

Run from the repository root after members.py.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from folds import SETS, WEIGHTS, out_of_fold, paired_interval
from sklearn.metrics import roc_auc_score

OUT = Path("outputs/judgement_levers")


def reversible_rows(pairs: pd.DataFrame, share: float, excluded: set[tuple[str, str, str]]) -> tuple[list[int], int]:
    """Rows of a share of the pairs (drawn with seed 0) whose attested event (s, v, o) may stand against its role
    reversal (o, v, s): two different nouns, the reversal not itself attested, neither order in `excluded`; and how
    many rows were drawn."""
    attested = set(
        pd.read_parquet("data/training/triples.parquet")[["subject", "verb", "object"]].itertuples(
            index=False, name=None
        )
    )
    draw = np.random.default_rng(0).random(len(pairs)) < share
    rows = []
    for row in np.flatnonzero(draw):
        s, v, o = pairs.subject[row], pairs.verb[row], pairs.object[row]
        swap = (o, v, s)
        if not (s == o or swap in attested or swap in excluded or (s, v, o) in excluded):
            rows.append(row)
    return rows, int(draw.sum())


def reversed_pairs(share: float) -> None:
    pairs = pd.read_parquet("data/training/pairs.parquet")
    held_out = set()
    for half in ("valid", "test"):
        table = pd.read_csv(f"data/evaluation/reversals/{half}.tsv", sep="\t", keep_default_na=False)
        held_out |= set(table[["subject", "verb", "object"]].itertuples(index=False, name=None))
    rows, drawn = reversible_rows(pairs, share, held_out)
    negative = ["negative_subject", "negative_verb", "negative_object"]
    pairs.loc[rows, negative] = pairs.loc[rows, ["object", "verb", "subject"]].to_numpy()
    path = OUT / f"pairs-reversed-{share}.parquet"
    pairs.to_parquet(path, index=False)
    print(f"{path}: {len(rows):,} of {len(pairs):,} negatives are role reversals ({drawn:,} drawn)")


def judged_events() -> set[tuple[str, str, str]]:
    """Every event of every judged set, every half, as (subject, verb, object)."""
    from plausibility.benchmarks.datasets import load_plausibility_set

    events = set()
    for name in ("pep3k", "20q"):
        for half in ("valid", "test"):
            events |= {(e.triple.subject, e.triple.verb, e.triple.object) for e in load_plausibility_set(name, half)}
    for path in ("plain/valid", "plain/test", "reversals/valid", "reversals/test", "pap/test"):
        table = pd.read_csv(f"data/evaluation/{path}.tsv", sep="\t", keep_default_na=False)
        events |= set(table[["subject", "verb", "object"]].itertuples(index=False, name=None))
    return events


def added_pairs(share: float) -> None:
    pairs = pd.read_parquet("data/training/pairs.parquet")
    rows, drawn = reversible_rows(pairs, share, judged_events())
    reversals = pairs.loc[rows].copy()
    reversals[["negative_subject", "negative_verb", "negative_object"]] = reversals[
        ["object", "verb", "subject"]
    ].to_numpy()
    added = pd.concat([pairs, reversals], ignore_index=True)
    path = OUT / f"pairs-added-{share}.parquet"
    added.to_parquet(path, index=False)
    print(f"{path}: {len(pairs):,} pairs and {len(rows):,} more against role reversals ({drawn:,} drawn)")


def net_members(folder: str) -> None:
    from plausibility.benchmarks.datasets import load_plausibility_set
    from plausibility.scorers.registry import build_scorer
    from plausibility.triple import Triple

    plain = pd.read_csv("data/evaluation/plain/valid.tsv", sep="\t", keep_default_na=False)
    events = {d: [e.triple for e in load_plausibility_set(d, "valid")] for d in ("pep3k", "20q")}
    events["plain"] = [Triple(s, v, o) for s, v, o in zip(plain.subject, plain.verb, plain.object, strict=True)]
    nets = build_scorer(f"uncalibrated:ensemble:3*event:{folder}+{folder}")
    out = {}
    for name, triples in events.items():
        out[name + "/lo"] = nets.member_log_odds(triples)
        out[name + "/rev"] = nets.member_log_odds([Triple(t.object, t.verb, t.subject) for t in triples])
    np.savez(OUT / f"members-{Path(folder).name}.npz", **out)


def compare(names: list[str]) -> None:
    members = np.load(OUT / "members.npz", allow_pickle=True)
    labels = {d: members[d + "/labels"] for d in SETS}
    kinds = members["plain/kinds"]

    def base(name: str | None) -> dict[str, np.ndarray]:
        scores = {}
        for d in SETS:
            lo = members[d + "/lo"].copy()
            if name is not None:
                lo[:2] = np.load(OUT / f"members-{name}.npz")[d + "/lo"]
            scores[d] = WEIGHTS @ lo
        return scores

    def out_of_fold_of(scores: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return out_of_fold({d: scores[d][:, None] for d in SETS}, labels)

    reference = out_of_fold_of(base(None))
    reference_correct = (reference["plain"] > 0) == labels["plain"]
    for name in [None, *names]:
        predicted = out_of_fold_of(base(name))
        correct = (predicted["plain"] > 0) == labels["plain"]
        aucs = {d: round(roc_auc_score(labels[d], predicted[d]), 3) for d in SETS}
        by_kind = {k[:4]: round(float(correct[kinds == k].mean()), 2) for k in sorted(set(kinds))}
        gain = paired_interval(correct, reference_correct)
        print(name or "default", aucs, "plain acc", round(float(correct.mean()), 3), by_kind, "gain", gain)
        for d in SETS:  # the nets alone, as members: event:FOLDER's log-odds
            lo = np.load(OUT / f"members-{name}.npz")[d + "/lo"] if name else members[d + "/lo"]
            print(f"   {d} event-net member alone AUC {roc_auc_score(labels[d], lo[0]):.3f}")


def beside(names: list[str]) -> None:
    """For each weight of the plain half in the fit, the regression over the default's four log-odds and over those
    and NAME's two, out of fold: does a net move the trade between Pep-3k and plain, or only slide along it?"""
    members = np.load(OUT / "members.npz", allow_pickle=True)
    labels = {d: members[d + "/labels"] for d in SETS}
    default = {d: members[d + "/lo"].T for d in SETS}
    for plain_weight in (1, 3, 10, 25):
        for name in [None, *names]:
            features = default
            if name is not None:
                nets = np.load(OUT / f"members-{name}.npz")
                features = {d: np.hstack([default[d], nets[d + "/lo"].T]) for d in SETS}
            predicted = out_of_fold(features, labels, plain_weight)
            accuracy = ((predicted["plain"] > 0) == labels["plain"]).mean()
            aucs = " / ".join(f"{roc_auc_score(labels[d], predicted[d]):.3f}" for d in SETS)
            print(f"plain x{plain_weight:<3} {name or 'default':14s} AUC {aucs}, plain acc {accuracy:.3f}")


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    if command == "pairs":
        reversed_pairs(float(arguments[0]))
    elif command == "added":
        added_pairs(float(arguments[0]))
    elif command == "beside":
        beside(arguments)
    elif command == "members":
        net_members(arguments[0])
    else:
        compare(arguments)

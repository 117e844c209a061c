"""The stacked default: which features, fitted how, on the valid halves of Pep-3k, 20Q and plain.

    python experiments/default_stack/run.py features [--splits valid]   # every candidate feature, both precisions
    python experiments/default_stack/run.py choose                      # out-of-fold figures of each candidate

`features` scores every event of the named halves (and its role reversal) with the product's own stack
(`plausibility.scorers.stack`), once with the language model in float32 and once in bfloat16, and writes
`outputs/default_stack/features-<split>.npz`. `choose` fits one logistic regression per candidate feature set
and weight of the plain half, 5-fold out of fold over the three valid halves together, and prints each
half's AUC, the plain half's accuracy at .5 per kind, and the gain in plain accuracy over today's default
with a paired interval. Nothing here reads a test half unless `--splits test` is given, which is run once,
for the chosen stack.
"""

import argparse
import time
from pathlib import Path

import numpy as np
import yaml

import plausibility
from plausibility.benchmarks.registry import named_set
from plausibility.corpus.artefacts import read_count_table
from plausibility.lexicon.animacy import Animacy
from plausibility.lexicon.hierarchy import Hierarchy
from plausibility.resources.paths import bundled_triples
from plausibility.scorers.calibration import Calibration, fit_logistic
from plausibility.scorers.restriction import MOSTLY, SubjectRestriction
from plausibility.scorers.shipped import STACK_FORMAT
from plausibility.scorers.stack import RESTRICTION
from plausibility.triple import Triple

OUTPUT = Path("outputs/default_stack")
SETS = {"valid": ("pep3k", "20q", "plain"), "test": ("pep3k", "20q", "plain", "pap", "reversals")}
MEMBERS = ["event:conceptmax", "conceptmax", "zero-shot:@pmi-passive", "ngram"]
CANDIDATES = [*MEMBERS, *(f"reversal:{member}" for member in MEMBERS)]
# Which nouns count as animate, as candidates for the restriction (the product's is `ANIMATE_SYNSETS`).
ANIMACY = {
    "persons-animals": ("person.n.01", "people.n.01", "animal.n.01"),
    "and-groups": ("person.n.01", "people.n.01", "animal.n.01", "social_group.n.01"),
}


# What each half's features are read in: both precisions on the valid halves, where candidates are chosen; on
# the test halves only what a user of this machine's kind gets (bfloat16), for the floors.
PRECISIONS = {"valid": ("float32", "bfloat16"), "test": ("bfloat16",)}
# The test halves need no feature that no candidate has.
TEST_CANDIDATES = [*MEMBERS, *(f"reversal:{member}" for member in MEMBERS if member != "conceptmax")]


def candidate_folder(candidates: list[str]) -> Path:
    """A stack folder with every candidate feature at coefficient 0: what `features` reads the features through."""
    folder = OUTPUT / f"candidate-{len(candidates)}"
    folder.mkdir(parents=True, exist_ok=True)
    config = {
        "format": STACK_FORMAT,
        "name": "candidate",
        "version": "0",
        "summary": "every candidate feature",
        "members": MEMBERS,
        "features": [{"feature": feature, "coefficient": 0.0} for feature in candidates],
        "intercept": 0.0,
    }
    (folder / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    Calibration(1.0, 0.0, 0, "none: the features are read, not the score").save(folder / "calibration.json")
    return folder


def events(name: str, split: str) -> tuple[list[Triple], np.ndarray, np.ndarray, np.ndarray]:
    """A judged half's events as written, their labels, (plain) kinds, and the pair each is in: a `reversals`
    pair's id, or the event a plain role reversal reverses."""
    table = named_set(name, split).table
    triples = [Triple(s, v, o) for s, v, o in zip(table.subject, table.verb, table.object, strict=True)]
    empty = np.array([""] * len(table))
    kinds = table["kind"].to_numpy() if "kind" in table else empty
    pairs = table["pair"].astype(str).to_numpy() if "pair" in table else empty
    pairs = table["reversal_of"].astype(str).to_numpy() if "reversal_of" in table else pairs
    return triples, table["label"].to_numpy(), kinds, pairs


def features(split: str) -> None:
    candidates = CANDIDATES if split == "valid" else TEST_CANDIDATES
    folder = candidate_folder(candidates)
    halves = {name: events(name, split) for name in SETS[split]}
    saved: dict[str, np.ndarray] = {}
    for name, (triples, labels, kinds, pairs) in halves.items():
        saved |= {f"{name}/labels": labels, f"{name}/kinds": kinds, f"{name}/pairs": pairs}
        saved[f"{name}/events"] = np.array(list(map(str, triples)))
    hierarchy = Hierarchy.load()
    counted = read_count_table(bundled_triples())
    for variant, synsets in ANIMACY.items():
        animacy = Animacy(hierarchy, synsets)
        restriction = SubjectRestriction.count(counted, animacy)
        restriction.save(OUTPUT / f"restriction-{variant}.json")
        for name, (triples, *_) in halves.items():  # the share itself: `choose` tries forms of it
            shares = [restriction.share(t.verb) if animacy(t.subject) is False else 0.0 for t in triples]
            saved[f"{name}/{RESTRICTION}/{variant}"] = np.array(shares)
    for precision in PRECISIONS[split]:
        stack = plausibility.load_scorer(f"uncalibrated:{folder}", dtype=precision).scorer
        for name, (triples, *_) in halves.items():
            start = time.perf_counter()
            saved[f"{name}/{precision}"] = stack.feature_values(triples)
            print(
                f"{name} {split} {precision}: {len(triples)} events in {time.perf_counter() - start:.0f} s", flush=True
            )
    np.savez(OUTPUT / f"features-{split}.npz", names=np.array(candidates), **saved)


# Today's default (1.0): its members' weights over MEMBERS and its Platt map on human judgements.
TODAY_WEIGHTS = np.array([3, 1, 6, 6]) / 16
TODAY_CALIBRATION = (1.810060958311358, -0.26896948217710775)
FEATURE_SETS = {
    "members": MEMBERS,
    "+ LM reversal": [*MEMBERS, "reversal:zero-shot:@pmi-passive"],
    "+ every cheap reversal": [*MEMBERS, *(f"reversal:{m}" for m in MEMBERS if m != "conceptmax")],
    "+ every reversal": CANDIDATES,
    "+ cheap reversals, restriction": [*MEMBERS, *(f"reversal:{m}" for m in MEMBERS if m != "conceptmax"), RESTRICTION],
    "+ every reversal, restriction": [*CANDIDATES, RESTRICTION],
    "fast: no LM, its reversals, restriction": [
        "event:conceptmax", "conceptmax", "ngram", "reversal:event:conceptmax", "reversal:ngram", RESTRICTION,
    ],
    "fast, no restriction": ["event:conceptmax", "conceptmax", "ngram", "reversal:event:conceptmax", "reversal:ngram"],
    "fast, no grid": ["event:conceptmax", "ngram", "reversal:event:conceptmax", "reversal:ngram", RESTRICTION],
    "fast, no grid, no net reversal": ["event:conceptmax", "ngram", "reversal:ngram", RESTRICTION],
}  # fmt: skip
PLAIN_WEIGHTS = (1.0, 3.0, 5.0, 10.0)


# Forms of the restriction: the verb's share of animate subjects where the subject is not animate (0 else),
# as it is, beyond a threshold (the product's: beyond `MOSTLY`), or a step.
FORMS = {
    "share": lambda share: share,
    "beyond .3": lambda share: np.maximum(share - 0.3, 0.0),
    "beyond .5": lambda share: np.maximum(share - MOSTLY, 0.0),
    "beyond .6": lambda share: np.maximum(share - 0.6, 0.0),
    "step at .5": lambda share: (share > 0.5).astype(float),
}
SHIPPED = ("persons-animals", "beyond .5")


def matrix(
    saved: np.lib.npyio.NpzFile, name: str, features: list[str], precision: str, restriction: tuple[str, str] = SHIPPED
) -> np.ndarray:
    """The columns of `features` for one half; the restriction counted with an animacy variant, in a form."""
    names, values = list(saved["names"]), saved[f"{name}/{precision}"]
    animacy, form = restriction
    return np.column_stack(
        [
            FORMS[form](saved[f"{name}/{RESTRICTION}/{animacy}"]) if f == RESTRICTION else values[:, names.index(f)]
            for f in features
        ]
    )


def out_of_fold(features: dict[str, np.ndarray], labels: dict[str, np.ndarray], plain_weight: float) -> dict:
    """Each half's decision values from 5 fits that did not see them (event i in fold i % 5), fitted as
    `plausibility export stack:...` fits (nearly unpenalised, the plain half's events weighing `plain_weight`)."""
    halves = SETS["valid"]
    predicted = {name: np.zeros(len(labels[name])) for name in halves}
    for fold in range(5):
        held = {name: np.arange(len(labels[name])) % 5 == fold for name in halves}
        coefficients, intercept = fit_logistic(
            np.vstack([features[name][~held[name]] for name in halves]),
            np.concatenate([labels[name][~held[name]] for name in halves]),
            np.concatenate([np.full((~held[name]).sum(), plain_weight if name == "plain" else 1.0) for name in halves]),
        )
        for name in halves:
            predicted[name][held[name]] = intercept + features[name][held[name]] @ coefficients
    return predicted


def choose(precision: str) -> None:
    from plausibility.bootstrap import paired_interval
    from plausibility.metrics import roc_auc

    saved = np.load(OUTPUT / "features-valid.npz", allow_pickle=True)
    halves = SETS["valid"]
    labels = {name: saved[f"{name}/labels"] for name in halves}
    kinds = saved["plain/kinds"]
    today = matrix(saved, "plain", MEMBERS, "float32") @ TODAY_WEIGHTS
    today_right = (TODAY_CALIBRATION[0] * today + TODAY_CALIBRATION[1] > 0) == labels["plain"]

    def line(title: str, features: list[str], weight: float, restriction: tuple[str, str] = SHIPPED) -> None:
        columns = {name: matrix(saved, name, features, precision, restriction) for name in halves}
        predicted = out_of_fold(columns, labels, weight)
        right = (predicted["plain"] > 0) == labels["plain"]
        gain = paired_interval(
            lambda a, b: a.mean() - b.mean(), right, today_right, np.random.default_rng(0), n_resamples=2000
        )
        aucs = " ".join(f"{name} {roc_auc(labels[name], predicted[name]):.3f}" for name in halves)
        by_kind = " ".join(f"{kind[:4]} {right[kinds == kind].mean():.2f}" for kind in sorted(set(kinds)))
        print(
            f"{title} w={weight:g}: {aucs} | acc {right.mean():.3f} "
            f"({gain.estimate:+.3f} [{gain.low:+.3f}, {gain.high:+.3f}]) | {by_kind}",
            flush=True,
        )

    print(f"valid halves, {precision}: out-of-fold AUC, plain accuracy at .5 (gain over today's default, paired)")
    print(f"today's default: plain accuracy {today_right.mean():.3f}")
    for title, features in FEATURE_SETS.items():
        for weight in PLAIN_WEIGHTS:
            line(title, features, weight)
    print("the restriction's animacy and form, beside the members and their cheap reversals:")
    cheap = FEATURE_SETS["+ cheap reversals, restriction"]
    for animacy in ANIMACY:
        for form in FORMS:
            for weight in (3.0, 5.0):
                line(f"{animacy}, {form}", cheap, weight, (animacy, form))


# The test floors a new default must hold (today's Pep-3k / 20Q test AUC less .01, and PAP's).
FLOORS = {"pep3k": 0.691, "20q": 0.717, "pap": 0.866}


def ranked_candidates(saved: np.lib.npyio.NpzFile) -> list[tuple[float, str, list[str], float, tuple[str, str]]]:
    """Every candidate the valid halves measured that keeps Pep-3k and 20Q valid AUC within .005 of today's
    default (.690 / .734), best plain valid accuracy at .5 first (then plain valid AUC): the order the test
    floors are tried in, fixed before any test half is read."""
    from plausibility.metrics import roc_auc

    halves = SETS["valid"]
    labels = {name: saved[f"{name}/labels"] for name in halves}
    found = []
    for title, features in FEATURE_SETS.items():
        if "reversal:conceptmax" in features or title.startswith("fast"):
            continue
        for restriction in [(a, f) for a in ANIMACY for f in FORMS] if RESTRICTION in features else [SHIPPED]:
            for weight in PLAIN_WEIGHTS:
                columns = {name: matrix(saved, name, features, "float32", restriction) for name in halves}
                predicted = out_of_fold(columns, labels, weight)
                aucs = {name: roc_auc(labels[name], predicted[name]) for name in halves}
                if round(aucs["pep3k"], 3) < 0.685 or round(aucs["20q"], 3) < 0.729:
                    continue
                accuracy = float(((predicted["plain"] > 0) == labels["plain"]).mean())
                found.append((accuracy, aucs["plain"], title, features, weight, restriction))
    found.sort(key=lambda row: (-row[0], -row[1]))
    return [
        (accuracy, title, features, weight, restriction) for accuracy, _, title, features, weight, restriction in found
    ]


def floors() -> None:
    """Each ranked candidate fitted on the valid halves as export fits it (its bfloat16 calibration too), then
    read on the test halves in bfloat16; the first that holds every floor is the one to ship."""
    from plausibility.evaluation.judged_figures import pair_outcomes
    from plausibility.metrics import roc_auc
    from plausibility.scorers.calibration import fit_platt

    valid = np.load(OUTPUT / "features-valid.npz", allow_pickle=True)
    test = np.load(OUTPUT / "features-test.npz", allow_pickle=True)
    halves = SETS["valid"]
    labels = {name: valid[f"{name}/labels"] for name in halves}
    weights = lambda w: np.concatenate([np.full(len(labels[n]), w if n == "plain" else 1.0) for n in halves])  # noqa: E731
    shipped = None
    for accuracy, title, features, weight, restriction in ranked_candidates(valid):
        values = {
            p: np.vstack([matrix(valid, n, features, p, restriction) for n in halves]) for p in PRECISIONS["valid"]
        }
        y = np.concatenate([labels[n] for n in halves])
        coefficients, intercept = fit_logistic(values["float32"], y, weights(weight))
        platt = fit_platt(intercept + values["bfloat16"] @ coefficients, y, "valid", "judgements", weights(weight))
        figures = {}
        for name in SETS["test"]:
            score = intercept + matrix(test, name, features, "bfloat16", restriction) @ coefficients
            truth = test[f"{name}/labels"]
            if name == "reversals":
                figures[name] = pair_outcomes(score, list(test[f"{name}/pairs"]), truth).mean()
                continue
            figures[name] = roc_auc(truth, score)
            if name == "plain":
                figures["plain acc."] = float(((platt.probability(score) > 0.5) == truth).mean())
        holds = all(figures[name] >= floor for name, floor in FLOORS.items())
        if holds and shipped is None:
            shipped = title
        print(
            f"{'SHIP ' if shipped == title and holds else '     '}{title} {restriction} w={weight:g} "
            f"(valid acc. {accuracy:.3f}): " + " ".join(f"{k} {v:.3f}" for k, v in figures.items()),
            flush=True,
        )
        if shipped is not None:
            break


def compare(new: Path, new_calibration: Path, old: Path, old_calibration: Path) -> None:
    """Paired differences between two `evaluate --dump-scores` files of the same test events: AUC on Pep-3k,
    20Q and PAP, accuracy at .5 on plain (all and by kind), pairwise accuracy on the reversal pairs."""
    import pandas as pd

    from plausibility.bootstrap import paired_interval
    from plausibility.evaluation.intervals import auc_difference_interval

    def read(path: Path, calibration: Path) -> pd.DataFrame:
        table = pd.read_csv(path, sep="\t", keep_default_na=False, dtype={"pair": str})
        return table.assign(probability=Calibration.load(calibration).probability(table["score"].to_numpy()))

    first, second = read(new, new_calibration), read(old, old_calibration)
    assert (
        (first[["benchmark", "subject", "verb", "object"]] == second[["benchmark", "subject", "verb", "object"]])
        .all()
        .all()
    )
    rng = np.random.default_rng(0)

    def show(what: str, interval: object) -> None:
        print(f"{what}: {interval.estimate:+.3f} [{interval.low:+.3f}, {interval.high:+.3f}]")

    for name in ("pep3k", "20q", "pap"):
        rows = (first["benchmark"] == name).to_numpy()
        labels = first.loc[rows, "label"].astype(int).to_numpy()
        show(f"{name} test AUC, new - old", auc_difference_interval(labels, first.score[rows], second.score[rows], rng))
    plain = (first["benchmark"] == "plain").to_numpy()
    labels = first.loc[plain, "label"].astype(int).to_numpy()
    right = [((table.loc[plain, "probability"] > 0.5).astype(int).to_numpy() == labels) for table in (first, second)]
    kinds = first.loc[plain, "kind"].to_numpy()
    difference = lambda a, b: a.mean() - b.mean()  # noqa: E731
    show("plain test accuracy at .5, new - old", paired_interval(difference, *right, rng, n_resamples=2000))
    for kind in sorted(set(kinds)):
        chosen = kinds == kind
        print(f"  {kind}: new {right[0][chosen].mean():.3f}, old {right[1][chosen].mean():.3f} ({chosen.sum()} events)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("features", "choose", "floors", "compare"))
    parser.add_argument("--new", nargs=2, type=Path, metavar=("DUMP", "CALIBRATION"), help="compare: the new model")
    parser.add_argument("--old", nargs=2, type=Path, metavar=("DUMP", "CALIBRATION"), help="compare: today's")
    parser.add_argument("--splits", default="valid", choices=tuple(SETS))
    parser.add_argument("--precision", default="float32", choices=("float32", "bfloat16"))
    args = parser.parse_args()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    if args.step == "features":
        features(args.splits)
    elif args.step == "choose":
        choose(args.precision)
    elif args.step == "floors":
        floors()
    else:
        compare(*args.new, *args.old)


if __name__ == "__main__":
    main()

"""How do the shipped models and the default's members judge PAP, the plain events and role reversals?

Runs `plausibility evaluate` once per model on `pap` (its test set), on `plain` and on `reversals` (both halves
of each), into `OUTPUT/<model>/`, `OUTPUT/plain_<model>/` and `OUTPUT/rev_<model>/`; a model whose metrics are
already there is not run again. Then prints the tables of the README: the figures over all events, accuracy at .5 per
plain kind (test half), PAP's AUC per abstractness combination, and the best accuracy any threshold on a model's
score reaches on the plain valid half (chosen on that half itself): what a recalibration could do at most.

    python experiments/judgement_benchmarks/run.py [--output outputs/judgement_benchmarks]
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

from plausibility.metrics import best_threshold_accuracy

MODELS = ["default", "conceptmax", "roberta", "event:conceptmax", "zero-shot:@pmi-passive", "ngram"]
KINDS = ["animacy", "physical", "role_reversal", "instrument_material", "typical", "atypical"]


def folder_name(model: str) -> str:
    return model.replace(":", "_").replace("@", "_")


def evaluate(model: str, benchmarks: str, folder: Path) -> list[dict]:
    if not (folder / "metrics.json").is_file():
        command = [str(Path(sys.executable).with_name("plausibility")), "-q", "evaluate", "--model", model]
        command += ["--benchmarks", benchmarks, "--output", str(folder), "--dump-scores", str(folder / "scores.tsv")]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    figures = json.loads((folder / "metrics.json").read_text())["figures"]
    return [figure for figure in figures if figure["benchmark"] in benchmarks.split(",")]


def shown(figures: list[dict], benchmark: str, split: str, group: str, figure: str, interval: bool = True) -> str:
    for f in figures:
        if (f["benchmark"], f["split"], f["group"], f["figure"]) == (benchmark, split, group, figure):
            value = f"{f['value']:.3f}".replace("0.", ".", 1)
            if not interval or f["low"] is None:
                return value
            return f"{value} [{f['low']:.3f}, {f['high']:.3f}]".replace("0.", ".")
    return "–"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=Path("outputs/judgement_benchmarks"))
    args = parser.parse_args()
    judged = {
        m: evaluate(m, "pap", args.output / folder_name(m))
        + evaluate(m, "plain", args.output / f"plain_{folder_name(m)}")
        for m in MODELS
    }
    reversed_ = {m: evaluate(m, "reversals", args.output / f"rev_{folder_name(m)}") for m in MODELS}
    columns = [
        ("PAP AUC", "pap", "test", "auc"),
        ("PAP AUC, agreed label", "pap", "test", "auc_agreed"),
        ("PAP Spearman", "pap", "test", "spearman"),
        ("plain valid AUC", "plain", "valid", "auc"),
        ("plain valid acc. at .5", "plain", "valid", "accuracy_at_half"),
        ("plain test AUC", "plain", "test", "auc"),
        ("plain test acc. at .5", "plain", "test", "accuracy_at_half"),
        ("plain valid reversals", "plain", "valid", "reversal_accuracy"),
        ("plain test reversals", "plain", "test", "reversal_accuracy"),
    ]
    print("| model | " + " | ".join(c[0] for c in columns) + " | `reversals` valid | `reversals` test |")
    print("| --- |" + " --- |" * (len(columns) + 2))
    for m in MODELS:
        cells = [shown(judged[m], b, s, "all", f) for _, b, s, f in columns]
        cells += [shown(reversed_[m], "reversals", s, "all", "pairwise_accuracy") for s in ("valid", "test")]
        print(f"| `{m}` | " + " | ".join(cells) + " |")
    print("\nAccuracy at .5 per kind, plain test half:\n")
    print("| model | " + " | ".join(KINDS) + " |")
    print("| --- |" + " --- |" * len(KINDS))
    for m in MODELS:
        cells = [shown(judged[m], "plain", "test", f"kind={k}", "accuracy_at_half", False) for k in KINDS]
        print(f"| `{m}` | " + " | ".join(cells) + " |")
    combinations = sorted({f["group"] for f in judged["default"] if f["group"].startswith("abstractness")})
    print("\nPAP AUC per abstractness combination (subject-verb-object: concrete, mixed, abstract):\n")
    print("| combination | n | " + " | ".join(f"`{m}`" for m in MODELS) + " |")
    print("| --- | --- |" + " --- |" * len(MODELS))
    for group in combinations:
        n = next(f["n"] for f in judged["default"] if f["group"] == group and f["figure"] == "auc")
        cells = [shown(judged[m], "pap", "test", group, "auc", False) for m in MODELS]
        print(f"| {group.split('=')[1]} | {n} | " + " | ".join(cells) + " |")
    print("\nBest accuracy of one threshold on the score, plain valid half (chosen on it):\n")
    for m in MODELS:
        best = plain_valid_best_accuracy(args.output / f"plain_{folder_name(m)}" / "scores.tsv")
        print(f"- `{m}`: {best:.3f}")


def plain_valid_best_accuracy(scores: Path) -> float:
    """The highest share of the plain valid half that one threshold on the score puts on the right side."""
    table = pd.read_csv(scores, sep="\t")
    table = table[(table["benchmark"] == "plain") & (table["split"] == "valid")]
    return best_threshold_accuracy(table["label"].to_numpy(), table["score"].to_numpy())


if __name__ == "__main__":
    main()

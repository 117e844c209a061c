"""Measure the default-scorer candidates on the valid halves and record the choice in `data/models/default.json`.

The candidates are the zero-shot LM, every model folder shipped under `data/models/`, and any SPEC given with
`--candidate` (an ensemble of shipped parts, say). A folder's valid AUCs are read from its `evaluation.json`
(measured by `plausibility export` on the exported weights); the zero-shot LM and the extra candidates are
scored here. The candidate with the highest mean valid AUC over Pep-3k and 20Q becomes what
`load_scorer()` and `plausibility score` use when no SPEC is given. Test halves are never looked at.

    python scripts/choose_default_scorer.py [--candidate ensemble:conceptmax+zero-shot]
"""

import argparse
import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from plausibility.evaluation.auc import evaluate_auc
from plausibility.evaluation.datasets import DATASETS
from plausibility.models.model_folder import EVALUATION, is_model_folder
from plausibility.resources import data_dir
from plausibility.scorers import load_scorer
from plausibility.scorers.default import FALLBACK_SCORER, choice_path


def shipped_figures() -> dict[str, dict[str, float]]:
    """Valid AUC of each shipped folder, by its bare SPEC (the folder's name)."""
    figures = {}
    for folder in sorted((data_dir() / "models").iterdir()):
        if is_model_folder(folder) and (folder / EVALUATION).is_file():
            measured = json.loads((folder / EVALUATION).read_text(encoding="utf-8"))
            figures[folder.name] = {dataset: measured[f"{dataset}/valid"]["estimate"] for dataset in DATASETS}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, help="where to write the choice (default: data/models/default.json)")
    parser.add_argument("--candidate", action="append", default=[], metavar="SPEC", help="another SPEC to measure")
    args = parser.parse_args()
    valid = {}
    for spec in [FALLBACK_SCORER, *args.candidate]:
        scorer = load_scorer(spec)
        valid[spec] = {half.dataset: half.auc for half in evaluate_auc(scorer, DATASETS, ("valid",))}
    valid.update(shipped_figures())
    means = {spec: sum(auc.values()) / len(auc) for spec, auc in valid.items()}
    chosen = max(means, key=lambda spec: (means[spec], spec == FALLBACK_SCORER))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    when = datetime.now(UTC).strftime("%Y-%m-%d")
    measured = f"valid halves, measured by scripts/choose_default_scorer.py on {when} at commit {commit or 'unknown'}"
    target = args.output or choice_path()
    target.write_text(json.dumps({"spec": chosen, "valid_auc": valid, "measured": measured}, indent=1) + "\n")
    for spec in sorted(means, key=means.get, reverse=True):
        figures = ", ".join(f"{dataset} {auc:.3f}" for dataset, auc in valid[spec].items())
        print(f"{'*' if spec == chosen else ' '} {spec}: mean valid AUC {means[spec]:.3f} ({figures})")
    print(f"default scorer: {chosen} -> {target}")


if __name__ == "__main__":
    main()

"""Measure the default-model candidates on the valid halves and print the command that ships the best as `default`.

The candidates are the zero-shot LM, every model shipped under `data/models/` (the current `default` among them,
so a new candidate is measured against it) and any SPEC given with `--candidate` (an ensemble of shipped parts,
say). Each is scored here on the valid halves of Pep-3k and 20Q, and the table is ranked by mean valid AUC.
The winner ships as the folder `data/models/default` (what `load_scorer()` and `plausibility score` use when no
SPEC is given) by the `plausibility export` command printed last, which calibrates it on the human-judged valid
halves and measures it, test halves included, once (a shipped net is exported anew from its folder; a scorer that
export cannot ship, such as `zero-shot`, is passed over for the next). Nothing is written here, and test halves
are never looked at.

    python tools/choose_default_model.py --candidate 'ensemble:event:conceptmax+2*zero-shot:@pmi-passive+4*ngram'
"""

import argparse
import gc
import time
from pathlib import Path

import plausibility
from plausibility.benchmarks.datasets import DATASETS
from plausibility.resources.paths import shipped_models
from plausibility.scorers.shipped import DEFAULT_MODEL, model_folder, shipped_model
from plausibility.scorers.spec import parse_spec

ZERO_SHOT = "zero-shot"


def measure(spec: str) -> dict[str, float]:
    """The AUC of SPEC's scorer on each valid half, by dataset."""
    evaluation = plausibility.evaluate(spec, benchmarks=DATASETS, splits=("valid",))
    return {f.benchmark: f.value for f in evaluation.figures if f.figure == "auc" and f.group == "all"}


def export_source(spec: str) -> str | None:
    """What `plausibility export` takes to ship SPEC's scorer: an `ensemble:` SPEC, a checkpoint or a model folder
    (a shipped one by its path, a shipped ensemble or stack by its source); None for a scorer it cannot export
    (`zero-shot`)."""
    parsed = parse_spec(spec)
    if parsed.kind == "shipped":
        folder = model_folder(spec)
        if (written := shipped_model(spec).spec) is not None:
            return written
        return str(folder.relative_to(Path.cwd()) if folder.is_relative_to(Path.cwd()) else folder)
    if parsed.kind in ("ensemble", "checkpoint", "folder"):
        return spec
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidate", action="append", default=[], metavar="SPEC", help="another SPEC to measure")
    parser.add_argument(
        "--model-version", default="VERSION", help="the version the printed export command gives the winner"
    )
    args = parser.parse_args()
    shipped = shipped_models()
    candidates = list(dict.fromkeys([ZERO_SHOT, *shipped, *args.candidate]))
    for spec in candidates:
        parse_spec(spec)  # a misspelt candidate fails now, not after the others are measured
    valid: dict[str, dict[str, float]] = {}
    for spec in candidates:
        started = time.monotonic()
        valid[spec] = measure(spec)
        gc.collect()  # one candidate's models at a time
        print(f"measured {spec} in {time.monotonic() - started:.0f} s", flush=True)
    means = {spec: sum(auc.values()) / len(auc) for spec, auc in valid.items()}
    # On a tie the current default stays: a new default must be better, not as good.
    ranked = sorted(means, key=lambda spec: (means[spec], spec == DEFAULT_MODEL), reverse=True)
    print()
    print("| rank | SPEC | mean valid AUC | " + " | ".join(f"valid AUC {dataset}" for dataset in DATASETS) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in DATASETS) + " |")
    for rank, spec in enumerate(ranked, start=1):
        figures = " | ".join(f"{valid[spec][dataset]:.4f}" for dataset in DATASETS)
        print(f"| {rank} | `{spec}` | {means[spec]:.4f} | {figures} |")
    print()
    for spec in ranked:
        if spec == DEFAULT_MODEL:
            print(f"the shipped {DEFAULT_MODEL!r} model ranks above every candidate that could replace it")
            return
        source = export_source(spec)
        if source is None:
            print(f"{spec} cannot ship as a folder (export takes a checkpoint, a model folder or an ensemble: SPEC)")
            continue
        print(f"best that ships: {spec}; to ship it as {DEFAULT_MODEL!r}:")
        print(
            f"plausibility export '{source}' data/models/{DEFAULT_MODEL} --calibration judgements "
            f"--name {DEFAULT_MODEL} --model-version {args.model_version} --overwrite"
        )
        return


if __name__ == "__main__":
    main()

"""What ConceptMax's maximum over abstractions costs or buys: valid AUC of each model with it and at the event alone.

For each SPEC that names a ConceptMax model (a checkpoint, an exported folder, `conceptmax`), the model is
scored twice on the valid halves of Pep-3k and 20Q: as ConceptMax (the maximum over every abstraction of an
event) and as `event:<SPEC>` (its net on the event alone, as a classifier is read). The table gives both AUCs
and their paired difference with a 95% bootstrap interval: an interval that holds 0 does not tell the two
apart. Test halves are never read.

    python experiments/maximum_cost/run.py conceptmax runs/concept_max/checkpoints/last.ckpt
"""

import argparse
import time

import numpy as np

import plausibility
from plausibility.evaluation.intervals import auc_difference_interval
from plausibility.evaluation.results import scored_halves
from plausibility.metrics import roc_auc
from plausibility.scorers.concept_max import ConceptMax


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", metavar="SPEC", help="ConceptMax models: checkpoints, folders, conceptmax")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    args = parser.parse_args()
    print("| model | dataset | ConceptMax | event alone | maximum less event [95% interval] | wall |")
    print("| --- | --- | --- | --- | --- | --- |")
    for spec in args.specs:
        started = time.monotonic()
        maximum = plausibility.load_scorer(f"uncalibrated:{spec}").scorer
        if not isinstance(maximum, ConceptMax):
            parser.error(f"{spec}: not a ConceptMax model; give a checkpoint or folder trained with abstractions > 0")
        with_max = [half for half in scored_halves(maximum) if half.judged.split == "valid"]
        alone = [half for half in scored_halves(maximum.searched) if half.judged.split == "valid"]
        wall = time.monotonic() - started
        for half, event in zip(with_max, alone, strict=True):
            rng = np.random.default_rng(args.seed)
            gap = auc_difference_interval(half.labels, half.scores, event.scores, rng)
            both = roc_auc(half.labels, half.scores), roc_auc(half.labels, event.scores)
            print(
                f"| `{spec}` | {half.judged.name} | {both[0]:.3f} | {both[1]:.3f} | "
                f"{gap.estimate:+.3f} [{gap.low:+.3f}, {gap.high:+.3f}] | {wall:.0f} s |"
            )


if __name__ == "__main__":
    main()

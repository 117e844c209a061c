"""Fit the Platt calibration of named offline scorers and write it into `data/calibration/`, where it ships.

A scorer with a shipped calibration answers its first probability without scoring the calibration
slice (the offline LM takes about a minute for it on 2 CPU cores). Each fit is the one any other SPEC gets
on first use: `DEFAULT_CALIBRATION_PAIRS` pairs of the bundled training set, drawn with seed 0, fitted on
held-out scores where the scorer has them. Each is written to `shipped_fit_path` of its SPEC (the canonical
SPEC as a file name). `--ece` also scores the slice a second time for the expected calibration error of the
scorer's own probabilities and of the calibrated ones.

    python tools/ship_calibration.py zero-shot zero-shot:gemma-3-270m
"""

import argparse
import time

from plausibility.metrics import expected_calibration_error
from plausibility.resources.paths import bundled_pairs
from plausibility.scorers.calibration import calibration_slice, fit_calibration
from plausibility.scorers.calibration_store import DEFAULT_CALIBRATION_PAIRS, shipped_fit_path
from plausibility.scorers.protocol import held_out_scores
from plausibility.scorers.registry import build_scorer
from plausibility.scorers.spec import parse_spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", metavar="SPEC", help="named scorers to calibrate, e.g. zero-shot")
    parser.add_argument(
        "--ece", action="store_true", help="score the slice again for the ECE before and after the calibration"
    )
    args = parser.parse_args()
    for spec in args.specs:
        started = time.monotonic()
        own = build_scorer(f"uncalibrated:{spec}")  # its own scores (and probabilities, for the ECE before)
        calibration = fit_calibration(own, bundled_pairs(), DEFAULT_CALIBRATION_PAIRS)
        target = shipped_fit_path(parse_spec(spec))
        target.parent.mkdir(parents=True, exist_ok=True)
        calibration.save(target)
        line = f"{spec}: {calibration.describe()}, {calibration.formula}, 0.5 at score {calibration.crossing:.3f}"
        if args.ece:
            triples, labels, _ = calibration_slice(bundled_pairs(), DEFAULT_CALIBRATION_PAIRS)
            scores = held_out_scores(own, triples)  # as fit_calibration scored them
            before = expected_calibration_error(labels, own.to_probability(scores))
            after = expected_calibration_error(labels, calibration.probability(scores))
            line += f"; ECE {before:.4f} -> {after:.4f} on {calibration.n} events"
        print(f"{line}; {time.monotonic() - started:.0f} s -> {target}")


if __name__ == "__main__":
    main()

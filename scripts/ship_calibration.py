"""Fit the Platt calibration of named offline scorers and write it into `data/calibration/`, where it ships.

A scorer with a shipped calibration answers its first probability without scoring the calibration
slice (the offline LM takes about a minute for it on 2 CPU cores). Each fit is the one any other SPEC gets
on first use: `DEFAULT_CALIBRATION_PAIRS` pairs of the bundled training set, drawn with seed 0.

    python scripts/ship_calibration.py zero-shot zero-shot:gemma-3-270m
"""

import argparse
import time

from plausibility.resources import data_dir
from plausibility.scorers import load_scorer
from plausibility.scoring.calibration import DEFAULT_CALIBRATION_PAIRS, bundled_calibration_path, fit_calibration


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="+", metavar="SPEC", help="named scorers to calibrate, e.g. zero-shot")
    args = parser.parse_args()
    pairs = data_dir() / "training" / "pairs.parquet"
    for spec in args.specs:
        started = time.monotonic()
        own = load_scorer(f"uncalibrated:{spec}")  # its own probabilities, for the ECE before calibration
        calibration = fit_calibration(own, pairs, DEFAULT_CALIBRATION_PAIRS)
        target = bundled_calibration_path(spec)
        target.parent.mkdir(parents=True, exist_ok=True)
        calibration.save(target)
        print(
            f"{spec}: {calibration.describe()}, 0.5 at score {calibration.crossing:.3f}; "
            f"ECE {calibration.ece_before:.4f} -> {calibration.ece_after:.4f} on {calibration.n} events; "
            f"{time.monotonic() - started:.0f} s -> {target}"
        )


if __name__ == "__main__":
    main()

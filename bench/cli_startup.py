"""Benchmark: wall time of `plausibility --help`, each subcommand's `--help` and an argument error, and of a cold
`plausibility score person breathe air` with the default model.

Each is a fresh process, so the figure includes Python's start and every import the command makes; the
baseline measured in the same run is a bare interpreter (`python -c pass`), and the ratio to it says how
much the command's imports cost. The target is at most 1.5 s for each help, and 4 s for the cold score
(the median of `--cold` runs after one that fills the caches, with the largest peak memory of them).
`--baseline-src DIR` times the cold score of another checkout's `src/` too (run with this interpreter).

    .venv/bin/python bench/cli_startup.py [--repeats 3] [--cold 5] [--baseline-src /path/to/old/src]
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

from plausibility.release.cold_start import measure_cold_start

COMMANDS = ["demo", "resources", "score", "fit", "validate", "test", "evaluate", "consistency", "pairs", "extract"]
COMMANDS += ["report", "serve"]


def fastest(arguments: list[str], repeats: int) -> float:
    """The fastest of `repeats` wall times of a fresh process (exit status ignored: errors are timed too)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(arguments, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cold", type=int, default=5, help="timed cold scores with the default model (0: none)")
    parser.add_argument("--baseline-src", help="another checkout's src/ folder, to time its cold score too")
    args = parser.parse_args()
    command = str(Path(sys.executable).with_name("plausibility"))
    baseline = fastest([sys.executable, "-c", "pass"], args.repeats)
    cases = {"plausibility --help": [command, "--help"]}
    cases |= {f"plausibility {name} --help": [command, name, "--help"] for name in COMMANDS}
    cases["plausibility score a b (argument error)"] = [command, "score", "a", "b"]
    print(f"{'bare python':45} {baseline:6.2f} s")
    worst = 0.0
    for name, arguments in cases.items():
        seconds = fastest(arguments, args.repeats)
        worst = max(worst, seconds)
        print(f"{name:45} {seconds:6.2f} s  ({seconds / baseline:5.1f}x bare python)")
    print(f"slowest: {worst:.2f} s (target 1.5 s)")
    if args.cold:
        for label, source in (("baseline", args.baseline_src), ("this checkout", None)):
            if label == "baseline" and not source:
                continue
            cold = measure_cold_start(runs=args.cold, source=source)
            print(
                f"cold score with the default, {label:14} {cold.seconds:6.2f} s median of {args.cold}, "
                f"peak {cold.peak_mib:,.0f} MiB"
            )


if __name__ == "__main__":
    main()

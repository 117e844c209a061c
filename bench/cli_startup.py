"""Benchmark: wall time of `plausibility --help`, each subcommand's `--help` and an argument error.

Each is a fresh process, so the figure includes Python's start and every import the command makes; the
baseline measured in the same run is a bare interpreter (`python -c pass`), and the ratio to it says how
much the command's imports cost. The target is at most 1.5 s for each.

    .venv/bin/python bench/cli_startup.py [--repeats 3]
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = ["demo", "resources", "score", "fit", "validate", "test", "evaluate", "consistency", "pairs", "extract"]
COMMANDS += ["report"]


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


if __name__ == "__main__":
    main()

"""How long a model takes to start: a fresh `plausibility score` process that loads it and scores one event.

Measured at export on the exporting machine, for the card: what a user waits for each time a command loads
the model (a served model pays it once).
"""

import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# Run in a fresh interpreter: times one command and reports its peak memory (RUSAGE_CHILDREN holds the largest of
# every child a process waited for, so each measurement needs a parent of its own).
_TIMED = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], capture_output=True, check=True)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@dataclass(frozen=True)
class ColdStart:
    """The median seconds of `runs` cold starts (after one that fills the caches), the largest peak memory."""

    seconds: float
    peak_mib: float
    runs: int
    cores: int

    def describe(self) -> str:
        return (
            f"{self.seconds:.1f} s to load it and score one event in a fresh `plausibility score` process (median "
            f"of {self.runs}, after one that fills the caches; {self.cores} CPU cores), {self.peak_mib:,.0f} MiB "
            "peak memory"
        )


def measure_cold_start(model: Path | None = None, runs: int = 3, source: str | None = None) -> ColdStart:
    """`plausibility score person breathe air --model MODEL` (no model: the default), timed `runs` times in
    fresh processes; with `source`, the package of that `src/` folder is timed instead of this one."""
    event = ["person", "breathe", "air"]
    arguments = [sys.executable, "-c", _TIMED, sys.executable, "-m", "plausibility", "score", *event]
    arguments += ["--model", str(model)] if model is not None else []
    environment = {**os.environ, "PYTHONPATH": source} if source else None
    measured = []
    for _ in range(runs + 1):
        done = subprocess.run(arguments, capture_output=True, check=True, text=True, env=environment)
        seconds, kibibytes = done.stdout.split()
        measured.append((float(seconds), int(kibibytes) / 1024))
    timed = measured[1:]
    return ColdStart(statistics.median(s for s, _ in timed), max(p for _, p in timed), runs, os.cpu_count() or 1)

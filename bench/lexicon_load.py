"""Time `Hierarchy.load()` cold (empty cache: the noun table is built from WordNet) and warm (table cached).

Each load runs in a fresh interpreter, so nothing is shared through memory. The cold run uses a new
cache folder holding only a copy of the converted WordNet files, so it times the table build and not the
one-off WordNet conversion. Usage: python bench/lexicon_load.py [--warm-runs 3]
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from plausibility.resources.paths import cache_dir
from plausibility.resources.wordnet import load_wordnet

_LOAD = (
    "import time; start = time.perf_counter(); "
    "from plausibility.lexicon.hierarchy import Hierarchy; Hierarchy.load(); "
    "print(time.perf_counter() - start)"
)


def timed_load(cache: Path) -> float:
    """Seconds from importing the lexicon to a loaded hierarchy, in a new interpreter using `cache`."""
    environment = {"PLAUSIBILITY_CACHE": str(cache), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", _LOAD], env=environment, capture_output=True, text=True, check=True
    )
    return float(run.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--warm-runs", type=int, default=3)
    args = parser.parse_args()
    load_wordnet()  # make sure the converted WordNet files exist to copy
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder)
        if (cache_dir() / "nltk_data").is_dir():
            shutil.copytree(cache_dir() / "nltk_data", cache / "nltk_data")
        print(f"cold: {timed_load(cache):.2f} s (builds {cache / 'lexicon'})")
        for run in range(args.warm_runs):
            print(f"warm {run + 1}: {timed_load(cache):.3f} s")


if __name__ == "__main__":
    main()

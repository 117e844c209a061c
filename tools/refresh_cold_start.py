"""Measure a shipped model's cold start again and rewrite that line of its card.

A model card gives the cold start measured when the model was exported. A change to the package that loads
models faster (or slower) leaves that figure behind; this measures it as the export does
(`release.cold_start.measure_cold_start` on the model's folder) and replaces the card's `Cold start:` line,
leaving every other line and every other file of the folder as it is.

    python tools/refresh_cold_start.py data/models/default data/models/conceptmax data/models/roberta
"""

import argparse
from pathlib import Path

from plausibility.models.model_folder import ModelFolder
from plausibility.release.cold_start import measure_cold_start

PREFIX = "Cold start: "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, metavar="FOLDER", help="shipped model folders")
    parser.add_argument("--runs", type=int, default=3, help="timed runs after one that fills the caches (default 3)")
    args = parser.parse_args()
    for folder in args.folders:
        card = ModelFolder(folder).card
        lines = card.read_text(encoding="utf-8").splitlines(keepends=True)
        found = [index for index, line in enumerate(lines) if line.startswith(PREFIX)]
        if len(found) != 1:
            raise SystemExit(f"{card}: expected one line starting {PREFIX!r}, found {len(found)}")
        cold = measure_cold_start(folder, runs=args.runs)
        before = lines[found[0]].strip()
        lines[found[0]] = f"{PREFIX}{cold.describe()}.\n"
        card.write_text("".join(lines), encoding="utf-8")
        print(f"{folder}: {before}\n  -> {lines[found[0]].strip()}")


if __name__ == "__main__":
    main()

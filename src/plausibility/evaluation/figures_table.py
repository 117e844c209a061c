"""One table of figures across benchmarks, written as `metrics.json`, `metrics.csv` and `metrics.md`."""

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, fields
from pathlib import Path

from plausibility.atomic import atomic_write_text
from plausibility.evaluation.judged_figures import Figure

COLUMNS = tuple(field.name for field in fields(Figure))
# Figures in the written tables carry this many decimals; the scores dumped with --dump-scores keep full precision.
DECIMALS = 6


def _rounded(figure: Figure) -> dict[str, object]:
    return {k: round(v, DECIMALS) if isinstance(v, float) and v == v else v for k, v in asdict(figure).items()}


def figures_markdown(figures: Sequence[Figure]) -> str:
    """A Markdown table: one row per benchmark, split, group and figure, with its interval and count."""
    lines = [
        "| benchmark | split | group | figure | value | 95% interval | n |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for f in figures:
        interval = f"[{f.low:.3f}, {f.high:.3f}]" if f.low == f.low else "-"  # NaN: too few to bootstrap
        lines.append(f"| {f.benchmark} | {f.split} | {f.group} | {f.figure} | {f.value:.3f} | {interval} | {f.n:,} |")
    return "\n".join(lines) + "\n"


def write_figures(figures: Sequence[Figure], folder: Path, about: Mapping[str, object]) -> list[Path]:
    """`metrics.json` (the figures with `about`: the model, versions, fillers), `metrics.csv` and `metrics.md`."""
    rows = [_rounded(figure) for figure in figures]
    document = {**about, "figures": [{k: (None if v != v else v) for k, v in row.items()} for row in rows]}
    paths = [folder / "metrics.json", folder / "metrics.csv", folder / "metrics.md"]
    atomic_write_text(paths[0], json.dumps(document, indent=2, allow_nan=False) + "\n")
    table = io.StringIO()
    writer = csv.DictWriter(table, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(paths[1], table.getvalue())
    atomic_write_text(paths[2], figures_markdown(figures))
    return paths

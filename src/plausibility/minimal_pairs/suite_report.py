"""A suite run's report: results.csv, summary.json, config.yaml, a bar chart and a rich table.

A run may score several language models on the same items: every file then holds each model's figures
beside the others' (a column `lm`, a summary per model, a bar per model in each group of the chart).
"""

import csv
import json
import math
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import IO, TYPE_CHECKING

import yaml
from rich.table import Table

from plausibility.atomic import atomic_write, atomic_write_text
from plausibility.minimal_pairs.evaluate import ComparisonResult, SuiteResult

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_TEST_COLOUR, _STATISTIC_COLOUR = "tab:blue", "tab:gray"
RESULT_COLUMNS = (
    "lm", "suite", "experiment", "metric", "comparison", "kind", "group", "n_items", "accuracy", "ci_low", "ci_high",
    "human_accuracy", "labels",
)  # fmt: skip


def group_name(group: Mapping[str, str]) -> str:
    """`all` for every item, else `label=value` pairs joined by `;`."""
    return ";".join(f"{label}={value}" for label, value in group.items()) or "all"


def _row(lm: str, result: SuiteResult, row: ComparisonResult) -> dict[str, object]:
    return {
        "lm": lm,
        "suite": result.suite,
        "experiment": result.experiment,
        "metric": result.metric,
        "comparison": row.comparison,
        "kind": row.kind,
        "group": group_name(row.group),
        "n_items": row.n_items,
        "accuracy": row.accuracy,
        "ci_low": row.ci_low,
        "ci_high": row.ci_high,
        "human_accuracy": "" if row.human is None else row.human,
        "labels": ";".join(f"{key}={value}" for key, value in row.labels.items()),
    }


def write_results_csv(runs: Mapping[str, SuiteResult], path: Path) -> None:
    """One row per language model, comparison and group."""

    def write(handle: IO) -> None:
        writer = csv.DictWriter(handle, fieldnames=RESULT_COLUMNS)
        writer.writeheader()
        writer.writerows(_row(lm, result, row) for lm, result in runs.items() for row in result.results)

    atomic_write(path, write)


def summary(result: SuiteResult, provenance: Mapping[str, object]) -> dict[str, object]:
    """The JSON summary: run facts, then each comparison over all items with its per-group figures."""
    comparisons: dict[str, dict[str, object]] = {}
    for row in result.results:
        entry = comparisons.setdefault(row.comparison, {"kind": row.kind, "labels": dict(row.labels), "groups": {}})
        figures = {
            key: value
            for key, value in asdict(row).items()
            if key in ("n_items", "accuracy", "ci_low", "ci_high", "human")
        }
        if row.group:
            entry["groups"][group_name(row.group)] = figures
        else:
            entry.update(figures)
    return {
        "suite": result.suite,
        "experiment": result.experiment,
        "version": result.version,
        "metric": result.metric,
        "score": result.score,
        "n_items": result.n_items,
        "n_texts": result.n_texts,
        **provenance,
        "mean_scores": dict(result.mean_scores),
        "comparisons": comparisons,
    }


# Figures in summary.json carry this many decimals: an accuracy of 33/50 is 0.66, not 0.6600000000000001.
# results.csv and the dumped scores keep full precision.
SUMMARY_DECIMALS = 6


def _summary_value(value: object) -> object:
    """NaN (too few items for an interval) as None, which JSON writes as null; floats without binary noise."""
    if isinstance(value, float):
        return None if math.isnan(value) else round(value, SUMMARY_DECIMALS)
    if isinstance(value, dict):
        return {key: _summary_value(item) for key, item in value.items()}
    return value


def write_summary_json(
    runs: Mapping[str, SuiteResult], provenance: Mapping[str, Mapping[str, object]], path: Path
) -> None:
    """`summary.json`, strict JSON (null where an interval is undefined), figures to six decimals: one
    model's summary, or with several `{"lms": [...], "by_lm": {lm: its summary}}`."""
    summaries = {lm: summary(result, provenance[lm]) for lm, result in runs.items()}
    content = next(iter(summaries.values())) if len(runs) == 1 else {"lms": list(runs), "by_lm": summaries}
    text = json.dumps(_summary_value(content), indent=2, allow_nan=False)
    atomic_write_text(path, text + "\n")


def write_config_yaml(resolved: Mapping[str, object], path: Path) -> None:
    """The resolved suite configuration the run used."""
    text = yaml.safe_dump(json.loads(json.dumps(resolved, default=str)), sort_keys=False, allow_unicode=True)
    atomic_write_text(path, text)


def _panels(result: SuiteResult, per_group: bool) -> list[tuple[str, list[ComparisonResult], list[str]]]:
    """(title, rows, bar names) per panel: all items, then with `per_group` one panel per set of group labels.

    A suite of one comparison (BLiMP, targeted syntax) has no all-items panel of its own, a single bar: its
    overall figure is the first bar, `all`, of the first group panel instead.
    """
    overall = [row for row in result.results if not row.group]
    panels = [("all items", overall, [row.comparison for row in overall])]
    groupings = list(dict.fromkeys(tuple(row.group) for row in result.results if row.group))
    if not per_group or not groupings:
        return panels
    several = len(overall) > 1
    if not several:
        panels = []
    for labels in groupings:
        rows = [row for row in result.results if tuple(row.group) == labels]
        names = [";".join(row.group.values()) for row in rows]
        if several:
            names = [f"{row.comparison}: {name}" for row, name in zip(rows, names, strict=True)]
        elif not panels:  # the first group panel opens with the overall bar
            rows, names = [*overall, *rows], ["all", *names]
        panels.append((f"{overall[0].comparison if overall else ''} per {', '.join(labels)}".strip(), rows, names))
    return panels


def _legend(rows: list[ComparisonResult], lms: list[str]) -> list[object]:
    """What each mark of the figure means, for the marks it has."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    if len(lms) == 1:
        handles: list[object] = [Patch(color=_TEST_COLOUR, label="accuracy: share of items with good > bad, 95% CI")]
    else:
        handles = [Patch(color=_lm_colour(index), label=lm) for index, lm in enumerate(lms)]
    if any(row.kind == "statistic" for row in rows):
        mark = "grey" if len(lms) == 1 else "hatched"
        statistic = f"statistic ({mark}): share with good > bad where neither is right, e.g. the distance effect"
        handles.append(
            Patch(color=_STATISTIC_COLOUR, label=statistic)
            if len(lms) == 1
            else Patch(facecolor="white", edgecolor="black", hatch="//", label=statistic)
        )
    if any(row.human is not None for row in rows):
        handles.append(Line2D([], [], marker="D", linestyle="", color="tab:orange", label="human accuracy"))
    handles.append(Line2D([], [], linestyle=":", color="black", linewidth=1, label="chance (0.5)"))
    return handles


def _lm_colour(index: int) -> str:
    return f"C{index % 10}"


def _same_rows(runs: Mapping[str, SuiteResult], rows: list[ComparisonResult]) -> list[list[ComparisonResult]]:
    """For each model, its rows for the comparisons and groups of `rows` (the first model's), in that order."""
    keyed = [{(row.comparison, tuple(row.group.items())): row for row in result.results} for result in runs.values()]
    return [[rows_of[(row.comparison, tuple(row.group.items()))] for row in rows] for rows_of in keyed]


def accuracy_figure(runs: Mapping[str, SuiteResult], per_group: bool = False) -> "Figure":
    """Bar chart of accuracy per comparison over all items (with `per_group`, one more panel per grouping,
    a bar per group), with interval whiskers, human accuracy as a diamond where known and chance (0.5) as
    a dotted line, like the papers' figures. With several models each bar becomes a group of bars, one per
    model in its colour. Bars are equally wide in every panel; one legend for the whole figure sits above
    the panels, so it hides no bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lms = list(runs)
    first = next(iter(runs.values()))
    panels = _panels(first, per_group)
    widest = max(len(rows) for _, rows, _ in panels)
    slot = 0.45 * max(1.0, 0.6 * len(lms))  # inches per comparison: wider when it holds a bar per model
    figure = plt.figure(figsize=(max(6.0, slot * widest + 2), 4.5 * len(panels)))
    grid = figure.add_gridspec(len(panels), widest)
    header = f"{first.suite} / {first.experiment} ({first.metric} metric)"
    width = 0.8 / len(lms)
    every: list[ComparisonResult] = []
    for number, (title, rows, names) in enumerate(panels):
        axis = figure.add_subplot(grid[number, : min(widest, max(len(rows), 6))])
        for index, lm_rows in enumerate(_same_rows(runs, rows)):
            every += lm_rows
            lower = [max(r.accuracy - r.ci_low, 0.0) if r.ci_low == r.ci_low else 0.0 for r in lm_rows]
            upper = [max(r.ci_high - r.accuracy, 0.0) if r.ci_high == r.ci_high else 0.0 for r in lm_rows]
            positions = [x + (index - (len(lms) - 1) / 2) * width for x in range(len(lm_rows))]
            statistic = [r.kind == "statistic" for r in lm_rows]
            if len(lms) == 1:
                colours = [_STATISTIC_COLOUR if s else _TEST_COLOUR for s in statistic]
                axis.bar(positions, [r.accuracy for r in lm_rows], yerr=[lower, upper], color=colours, capsize=3)
            else:
                bars = axis.bar(
                    positions, [r.accuracy for r in lm_rows], width, yerr=[lower, upper],
                    color=_lm_colour(index), capsize=2,
                )  # fmt: skip
                for bar, is_statistic in zip(bars, statistic, strict=True):
                    if is_statistic:
                        bar.set_hatch("//")
        humans = [(index, row.human) for index, row in enumerate(rows) if row.human is not None]
        if humans:
            axis.scatter(*zip(*humans, strict=True), marker="D", color="tab:orange", zorder=3)
        axis.axhline(0.5, linestyle=":", color="black", linewidth=1)
        axis.set_ylim(0, 1.05)
        axis.set_ylabel("accuracy")
        axis.set_xticks(list(range(len(rows))), names, rotation=60, ha="right", fontsize=8)
        axis.set_title(title if len(panels) > 1 else "")
    figure.suptitle(header)
    columns = 2 if len(lms) == 1 else min(4, len(lms) + 2)
    figure.legend(handles=_legend(every, lms), loc="upper center", bbox_to_anchor=(0.5, 1.0), ncol=columns, fontsize=8)
    figure.tight_layout(rect=(0, 0, 1, 1 - 0.6 / (4.5 * len(panels))))  # room for the title and legend above
    return figure


def plot_accuracy(runs: Mapping[str, SuiteResult], path: Path, per_group: bool = False) -> None:
    """`accuracy_figure` as a PNG (cropped to what is drawn, the legends beside the panels included)."""
    import matplotlib.pyplot as plt

    figure = accuracy_figure(runs, per_group)
    atomic_write(path, lambda handle: figure.savefig(handle, format="png", dpi=120, bbox_inches="tight"), binary=True)
    plt.close(figure)


def results_table(runs: Mapping[str, SuiteResult], per_group: bool = False) -> Table:
    """A rich table of the accuracies (over all items; with `per_group`, every group too), a row per model
    of each comparison when there are several."""
    first = next(iter(runs.values()))
    several = len(runs) > 1
    table = Table(title=f"{first.suite} / {first.experiment}: {first.metric} metric, {first.n_items} items")
    for column in ("comparison", "group", *(["lm"] if several else []), "n", "accuracy", "95% CI", "human", "labels"):
        table.add_column(column, overflow="fold")
    rows = [row for row in first.results if per_group or not row.group]
    for position, lm_rows in enumerate(zip(*_same_rows(runs, rows), strict=True)):
        for lm, row in zip(runs, lm_rows, strict=True):
            table.add_row(
                row.comparison + (" (statistic)" if row.kind == "statistic" else ""),
                group_name(row.group),
                *([lm] if several else []),
                str(row.n_items),
                f"{row.accuracy:.3f}",
                f"[{row.ci_low:.3f}, {row.ci_high:.3f}]",
                "" if row.human is None else f"{row.human:.3f}",
                ", ".join(row.labels.values()),
                end_section=several and position < len(rows) - 1 and lm == list(runs)[-1],
            )
    return table


def write_suite_report(
    runs: Mapping[str, SuiteResult],
    resolved: Mapping[str, object],
    provenance: Mapping[str, Mapping[str, object]],
    folder: Path,
    per_group: bool = False,
) -> list[Path]:
    """Every report file into `folder` (the plot with a bar per group when `per_group`); returns their paths.

    Args:
        runs: each language model's result (by its name), all on the same items.
        provenance: each model's run facts (its name, dtype, PLL metric...), written into its summary.
    """
    paths = [folder / name for name in ("results.csv", "summary.json", "config.yaml", "accuracy.png")]
    write_results_csv(runs, paths[0])
    write_summary_json(runs, provenance, paths[1])
    write_config_yaml(resolved, paths[2])
    plot_accuracy(runs, paths[3], per_group)
    return paths

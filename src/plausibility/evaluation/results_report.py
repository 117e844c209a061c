"""The results report rendered: Markdown tables beside the thesis's, JSON, its config, and the AUC chart."""

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np
import yaml

from plausibility.atomic import atomic_write, atomic_write_text
from plausibility.benchmarks.datasets import DATASET_TITLES, DATASETS, SPLITS
from plausibility.evaluation.intervals import AucInterval
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.report import Report
from plausibility.evaluation.results import ModelResult
from plausibility.version import __version__


def _number(value: float | None, digits: int = 3) -> str:
    """`.623` (leading zero dropped, as in the thesis tables); `–` for a missing value."""
    if value is None:
        return "–"
    text = f"{value:.{digits}f}"
    return text.replace("0.", ".", 1) if text.startswith(("0.", "-0.")) else text


def _interval(interval: AucInterval | None) -> str:
    if interval is None:
        return "–"
    return f"{_number(interval.estimate)} [{_number(interval.low)}, {_number(interval.high)}]"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def auc_markdown(models: Sequence[ModelResult]) -> str:
    """Table 6.4 in kind: AUC [95% interval] on the valid and test halves, the thesis's test AUC beside."""
    header = ["model"]
    for dataset in DATASETS:
        title = DATASET_TITLES[dataset]
        header += [f"{title} {split}" for split in SPLITS] + [f"{title} test (thesis)"]
    rows = []
    for model in models:
        row = [model.label]
        for dataset in DATASETS:
            row += [_interval(model.auc.get(dataset, {}).get(split)) for split in SPLITS]
            row.append(_number(model.thesis.auc[dataset], 2) if model.thesis else "–")
        rows.append(row)
    return _table(header, rows)


def consistency_markdown(models: Sequence[ModelResult]) -> str:
    """Table 6.5 in kind: CCΔ, scale-free CCΔ and LER per dataset (lower is better), the thesis's beside."""
    header = ["model"]
    for dataset in DATASETS:
        title = DATASET_TITLES[dataset]
        header += [f"{title} {name}" for name in ("CCΔ", "CCΔ scale-free", "LER", "CCΔ (thesis)", "LER (thesis)")]
    rows = []
    for model in models:
        row = [model.label]
        for dataset in DATASETS:
            ours = model.consistency.get(dataset)
            theirs = model.thesis.consistency[dataset] if model.thesis else None
            row += [_number(ours.ccd) if ours else "–", _number(ours.ccd_scale_free) if ours else "–"]
            row += [_number(ours.ler) if ours else "–"]
            row += [_number(theirs[0], 2) if theirs else "–", _number(theirs[1], 2) if theirs else "–"]
        rows.append(row)
    return _table(header, rows)


def benchmarks_markdown(models: Sequence[ModelResult]) -> str:
    """The judged sets from files: a column group per benchmark (its figures over all events), a row per model."""
    columns = list(
        dict.fromkeys((f.benchmark, f.figure) for model in models for f in model.benchmarks if f.group == "all")
    )
    header = ["model", *(f"{benchmark} {figure}" for benchmark, figure in columns)]
    rows = []
    for model in models:
        found = {(f.benchmark, f.figure): f for f in model.benchmarks if f.group == "all"}
        cells = []
        for key in columns:
            figure = found.get(key)
            cells.append(_interval(AucInterval(figure.value, figure.low, figure.high)) if figure else "–")
        rows.append([model.label, *cells])
    return _table(header, rows)


CONSISTENCY_NOTE = (
    "CCΔ is on each scorer's own probabilities, as in the thesis; the scale-free CCΔ is the same mean on each "
    "cell's percentile rank among all distinct abstractions scored for that half, so a scorer whose "
    "probabilities are all tiny cannot win by scale."
)


def _lexicon_text(model: ModelResult) -> str:
    lexicon = next(iter(model.consistency.values())).lexicon
    size = f" ({lexicon['vocabulary_size']:,} nouns)" if lexicon.get("vocabulary_size") else ""
    return f"{lexicon['vocabulary']}{size}, min depth {lexicon['min_depth']}, WSD {lexicon['wsd']}"


def report_markdown(report: Report) -> str:
    """Both tables with the notes needed to read them."""
    settings = report.settings
    confidence = f"{settings.confidence:.0%}"
    sample = "all" if settings.consistency_events is None else f"a seeded sample of {settings.consistency_events}"
    parts = [
        "# Plausibility results",
        f"## AUC (higher is better; [{confidence} bootstrap interval, {settings.n_resamples} resamples])",
        auc_markdown(report.models),
        "Thesis figures: Porada's thesis, Table 6.4 (test halves only).",
    ]
    if any(model.consistency for model in report.models):
        parts += [
            "## Consistency across abstractions (lower is better)",
            consistency_markdown(report.models),
            f"Events: {sample} of each {settings.consistency_split} half. {CONSISTENCY_NOTE} "
            "Thesis figures: Table 6.5 (all events).",
            "Lexicon of each model's grids:\n"
            + "\n".join(f"- **{model.label}**: {_lexicon_text(model)}" for model in report.models if model.consistency),
        ]
    if any(model.benchmarks for model in report.models):
        parts += [
            "## Other benchmarks (higher is better; [95% bootstrap interval])",
            benchmarks_markdown(report.models),
            "Each file is used whole (split `all`); settings are never chosen on it. AUC against binary labels, "
            "Spearman and Pearson against ratings, pairwise accuracy of typical against atypical events.",
        ]
    parts.append(
        "## Models\n"
        + "\n".join(
            f"- **{model.label}**: `{model.spec}`; probabilities: {model.probability_mapping}"
            for model in report.models
        )
    )
    if report.skipped:
        parts.append("## Skipped\n" + "\n".join(f"- **{label}**: {why}" for label, why in report.skipped.items()))
    return "\n\n".join(parts) + "\n"


def report_json(report: Report) -> dict:
    """The report as plain JSON values, with each model's thesis figures where the thesis has them."""
    models = []
    for model in report.models:
        entry = asdict(model)
        entry["thesis"] = asdict(model.thesis) if model.thesis else None
        entry["benchmarks"] = [{k: None if v != v else v for k, v in asdict(f).items()} for f in model.benchmarks]
        models.append(entry)
    settings = asdict(report.settings)
    return {"plausibility_version": __version__, "settings": settings, "models": models, "skipped": report.skipped}


# --- the AUC chart ----------------------------------------------------------------------------------

HALVES = [(dataset, split) for dataset in DATASETS for split in SPLITS]


def chart_values(models: Sequence[ModelResult]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """AUC, lower error and upper error per (model, half), shape (n_models, n_halves); NaN where missing."""
    shape = (len(models), len(HALVES))
    estimates, below, above = np.full(shape, np.nan), np.full(shape, np.nan), np.full(shape, np.nan)
    for i, model in enumerate(models):
        for j, (dataset, split) in enumerate(HALVES):
            interval = model.auc.get(dataset, {}).get(split)
            if interval is not None:
                estimates[i, j] = interval.estimate
                below[i, j] = interval.estimate - interval.low
                above[i, j] = interval.high - interval.estimate
    return estimates, below, above


def save_auc_chart(models: Sequence[ModelResult], path: Path) -> Path:
    """Grouped bars (one group per model, one bar per half) with error bars; thesis test AUCs as black ticks."""
    import matplotlib

    matplotlib.use("Agg")  # files only; never needs a display
    import matplotlib.pyplot as plt

    estimates, below, above = chart_values(models)
    width = 0.8 / len(HALVES)
    positions = np.arange(len(models))
    figure, axes = plt.subplots(figsize=(2.0 + 1.6 * max(len(models), 1), 4.2), layout="constrained")
    colours = plt.get_cmap("tab20").colors
    for j, (dataset, split) in enumerate(HALVES):
        x = positions - 0.4 + width * (j + 0.5)
        yerr = np.vstack([below[:, j], above[:, j]])
        label = f"{DATASET_TITLES[dataset]} {split}"
        axes.bar(x, estimates[:, j], width, yerr=yerr, capsize=2, color=colours[j], label=label)
        if split == "test":
            thesis = [model.thesis.auc[dataset] if model.thesis else np.nan for model in models]
            marker_label = "thesis (test)" if dataset == DATASETS[0] else None
            axes.scatter(x, thesis, marker="_", s=200, color="black", zorder=3, label=marker_label)
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")  # chance
    axes.set_xticks(positions, [model.label for model in models], rotation=20, ha="right")
    axes.set_ylim(0.3, 1.0)
    axes.set_ylabel("ROC-AUC (error bars: bootstrap interval)")
    axes.set_title("Plausibility AUC on Pep-3k and 20Q")
    axes.legend(fontsize=8, ncols=3, loc="upper left")
    try:
        atomic_write(path, lambda handle: figure.savefig(handle, format="png", dpi=120), binary=True)
    finally:
        plt.close(figure)
    return path


def write_results_report(report: Report, requests: Sequence[ModelRequest], output: Path) -> dict[str, Path]:
    """Write `config.yaml`, `results.json`, `report.md` and `auc.png` into `output`, each atomically."""
    output.mkdir(parents=True, exist_ok=True)
    config = {"models": [asdict(request) for request in requests], **asdict(report.settings)}
    paths = {name: output / name for name in ("config.yaml", "results.json", "report.md", "auc.png")}
    atomic_write_text(paths["config.yaml"], yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    atomic_write_text(paths["results.json"], json.dumps(report_json(report), indent=2, ensure_ascii=False) + "\n")
    atomic_write_text(paths["report.md"], report_markdown(report))
    save_auc_chart(report.models, paths["auc.png"])
    return paths

"""Bar chart of every model's AUC with bootstrap intervals, and the thesis's test AUCs marked beside."""

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from plausibility.atomic import atomic_write
from plausibility.evaluation.datasets import DATASETS, SPLITS
from plausibility.evaluation.report import DATASET_TITLES, ModelResult

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

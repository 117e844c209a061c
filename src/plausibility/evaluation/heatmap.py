"""A heatmap of one event's abstraction grid: subject abstractions down, object abstractions across."""

from pathlib import Path

from plausibility.atomic import atomic_write
from plausibility.evaluation.grids import ScoredGrid


def save_heatmap(scored: ScoredGrid, path: Path, title: str | None = None) -> Path:
    """Draw the grid's probabilities with each value written in its cell, as PNG at `path` (atomically)."""
    import matplotlib

    matplotlib.use("Agg")  # files only; never needs a display
    import matplotlib.pyplot as plt

    grid, values = scored.grid, scored.probabilities
    rows, columns = values.shape
    figure, axes = plt.subplots(figsize=(2.5 + 0.9 * columns, 2.2 + 0.45 * rows), layout="constrained")
    image = axes.imshow(values, cmap="viridis", vmin=0.0, vmax=max(float(values.max()), 1e-12), aspect="auto")
    for i in range(rows):
        for j in range(columns):
            # dark text on the bright end of viridis, light text on the dark end
            colour = "black" if values[i, j] > 0.6 * image.norm.vmax else "white"
            axes.text(j, i, f"{values[i, j]:.2g}", ha="center", va="center", color=colour, fontsize=8)
    axes.set_xticks(range(columns), [concept.text for concept in grid.objects], rotation=45, ha="right")
    axes.set_yticks(range(rows), [concept.text for concept in grid.subjects])
    axes.set_xlabel(f"object: {grid.event.object}")
    axes.set_ylabel(f"subject: {grid.event.subject}")
    axes.set_title(title or str(grid.event))
    figure.colorbar(image, ax=axes, label="probability")
    try:
        atomic_write(path, lambda handle: figure.savefig(handle, format="png", dpi=120), binary=True)
    finally:
        plt.close(figure)
    return path

"""Which cells of an event's abstraction grid ConceptMax training scores besides the event itself."""

import numpy as np

Cell = tuple[int, int]


def other_cells(shape: tuple[int, int]) -> list[Cell]:
    """Every cell of a `(rows, cols)` grid but the event's own, `(rows - 1, cols - 1)`, row-major."""
    rows, cols = shape
    return [(row, col) for row in range(rows) for col in range(cols) if (row, col) != (rows - 1, cols - 1)]


def sample_cells(shape: tuple[int, int], count: int, rng: np.random.Generator) -> list[Cell]:
    """Up to `count` distinct cells other than the event's, row-major; fewer when the grid has fewer.

    Every subset of that size is equally likely (the thesis's sampling).
    """
    cells = other_cells(shape)
    size = min(count, len(cells))
    if size == 0:
        return []
    picks = rng.choice(len(cells), size=size, replace=False)
    return [cells[i] for i in sorted(picks)]

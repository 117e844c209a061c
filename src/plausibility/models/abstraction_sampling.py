"""Which cells of an event's abstraction grid ConceptMax training scores besides the event itself."""

from typing import Literal

import numpy as np

from plausibility.errors import UnknownNameError

SamplingScheme = Literal["uniform", "nearby"]
SAMPLING_SCHEMES: tuple[SamplingScheme, ...] = ("uniform", "nearby")

Cell = tuple[int, int]


def other_cells(shape: tuple[int, int]) -> list[Cell]:
    """Every cell of a `(rows, cols)` grid but the event's own, `(rows - 1, cols - 1)`, row-major."""
    rows, cols = shape
    return [(row, col) for row in range(rows) for col in range(cols) if (row, col) != (rows - 1, cols - 1)]


def nearby_weights(shape: tuple[int, int]) -> np.ndarray:
    """`1 / (1 + d)` for each of `other_cells(shape)`, `d` its city-block distance to the event's cell.

    Axes run most general first, so `d = (rows - 1 - row) + (cols - 1 - col)` counts the hypernym steps
    taken from the event, over both arguments together.
    """
    rows, cols = shape
    return np.array([1.0 / (1 + (rows - 1 - row) + (cols - 1 - col)) for row, col in other_cells(shape)])


def sample_cells(shape: tuple[int, int], count: int, rng: np.random.Generator, scheme: SamplingScheme) -> list[Cell]:
    """Up to `count` distinct cells other than the event's, row-major; fewer when the grid has fewer.

    uniform: every subset of that size is equally likely (the thesis's sampling).
    nearby: cells are drawn one after another without replacement, each draw picking a cell not yet
        drawn with probability proportional to its `nearby_weights`, so close abstractions (a parent, a
        grandparent) are seen more often than the most general ones.
    """
    if scheme not in SAMPLING_SCHEMES:
        raise UnknownNameError("abstraction sampling", scheme, SAMPLING_SCHEMES)
    cells = other_cells(shape)
    size = min(count, len(cells))
    if size == 0:
        return []
    if scheme == "uniform":
        picks = rng.choice(len(cells), size=size, replace=False)
    else:
        weights = nearby_weights(shape)
        picks = rng.choice(len(cells), size=size, replace=False, p=weights / weights.sum())
    return [cells[i] for i in sorted(picks)]

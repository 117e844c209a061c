"""Sampling of grid cells for ConceptMax training: distinct, never the event, every cell equally likely."""

import numpy as np
import pytest

from plausibility.models.abstraction_sampling import other_cells, sample_cells

SHAPE = (3, 4)  # the event is cell (2, 3); 11 other cells


def _frequencies(count: int, draws: int) -> np.ndarray:
    rng = np.random.default_rng(1)
    index = {cell: i for i, cell in enumerate(other_cells(SHAPE))}
    seen = np.zeros(len(index))
    for _ in range(draws):
        seen[[index[cell] for cell in sample_cells(SHAPE, count, rng)]] += 1
    return seen / draws


def test_cells_are_distinct_row_major_and_never_the_event() -> None:
    rng = np.random.default_rng(0)
    for _ in range(300):
        cells = sample_cells(SHAPE, 3, rng)
        assert len(set(cells)) == 3 and cells == sorted(cells) and set(cells) <= set(other_cells(SHAPE))
    assert sample_cells((1, 1), 3, rng) == []  # a word WordNet lacks: the event alone
    assert sample_cells((1, 3), 5, rng) == [(0, 0), (0, 1)]  # fewer cells than asked for


def test_other_cells_leave_out_the_event() -> None:
    assert other_cells((2, 3)) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]


def test_exact_draws_with_a_fixed_seed() -> None:
    cells = other_cells(SHAPE)
    picks = np.random.default_rng(7).choice(len(cells), size=3, replace=False)
    assert sample_cells(SHAPE, 3, np.random.default_rng(7)) == [cells[i] for i in sorted(picks)]


def test_every_cell_is_included_equally_often() -> None:
    # A frequency over 20,000 draws has standard error sqrt(3/11 * 8/11 / 20000) = 0.0032: 0.015 is ~5 of them.
    assert _frequencies(3, 20_000) == pytest.approx(np.full(11, 3 / 11), abs=0.015)

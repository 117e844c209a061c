"""Sampling of grid cells for ConceptMax training: never the event, uniform or favouring nearby cells."""

from itertools import permutations

import numpy as np
import pytest

from plausibility.errors import UnknownNameError
from plausibility.models.abstraction_sampling import SAMPLING_SCHEMES, nearby_weights, other_cells, sample_cells

SHAPE = (3, 4)  # the event is cell (2, 3); 11 other cells


def _inclusion(weights: np.ndarray, count: int) -> np.ndarray:
    """Exact chance that each cell is among `count` successive draws without replacement, p ∝ weights."""
    chance = np.zeros(len(weights))
    for order in permutations(range(len(weights)), count):
        left, p = weights.sum(), 1.0
        for cell in order:
            p *= weights[cell] / left
            left -= weights[cell]
        chance[list(order)] += p
    return chance


def _frequencies(scheme: str, count: int, draws: int) -> np.ndarray:
    rng = np.random.default_rng(1)
    index = {cell: i for i, cell in enumerate(other_cells(SHAPE))}
    seen = np.zeros(len(index))
    for _ in range(draws):
        seen[[index[cell] for cell in sample_cells(SHAPE, count, rng, scheme)]] += 1
    return seen / draws


@pytest.mark.parametrize("scheme", SAMPLING_SCHEMES)
def test_cells_are_distinct_row_major_and_never_the_event(scheme: str) -> None:
    rng = np.random.default_rng(0)
    for _ in range(300):
        cells = sample_cells(SHAPE, 3, rng, scheme)
        assert len(set(cells)) == 3 and cells == sorted(cells) and set(cells) <= set(other_cells(SHAPE))
    assert sample_cells((1, 1), 3, rng, scheme) == []  # a word WordNet lacks: the event alone
    assert sample_cells((1, 3), 5, rng, scheme) == [(0, 0), (0, 1)]  # fewer cells than asked for


def test_other_cells_and_nearby_weights_follow_the_grid_distance() -> None:
    assert other_cells((2, 3)) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]
    # distances to the event (1, 2): 3, 2, 1, 2, 1
    assert nearby_weights((2, 3)).tolist() == [1 / 4, 1 / 3, 1 / 2, 1 / 3, 1 / 2]


def test_exact_draws_with_a_fixed_seed() -> None:
    cells = other_cells(SHAPE)
    picks = np.random.default_rng(7).choice(len(cells), size=3, replace=False)
    assert sample_cells(SHAPE, 3, np.random.default_rng(7), "uniform") == [cells[i] for i in sorted(picks)]
    # pinned, so a seeded run keeps drawing the same abstractions: two cells at distance 1, one at 2
    assert sample_cells(SHAPE, 3, np.random.default_rng(7), "nearby") == [(1, 3), (2, 1), (2, 2)]


def test_uniform_includes_every_cell_equally_often() -> None:
    assert _frequencies("uniform", 3, 20_000) == pytest.approx(np.full(11, 3 / 11), abs=0.015)


@pytest.mark.parametrize("count", [1, 3])
def test_nearby_draws_follow_the_documented_distribution(count: int) -> None:
    expected = _inclusion(nearby_weights(SHAPE), count)
    if count == 1:
        assert expected == pytest.approx(nearby_weights(SHAPE) / nearby_weights(SHAPE).sum())
    assert _frequencies("nearby", count, 20_000) == pytest.approx(expected, abs=0.015)


def test_an_unknown_scheme_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match=r"^unknown abstraction sampling 'far'; known: nearby, uniform$"):
        sample_cells(SHAPE, 3, np.random.default_rng(0), "far")  # type: ignore[arg-type]


"""`WarmupDecay`: warm-up as `LinearLR`, then constant or a linear / cosine decay reaching zero at the last step."""

import math

import pytest
import torch

from plausibility.errors import PlausibilityError
from plausibility.models.schedules import WarmupDecay


def _optimizer() -> torch.optim.Optimizer:
    return torch.optim.AdamW([torch.nn.Parameter(torch.zeros(1))], lr=1.0)


def _rates(scheduler: WarmupDecay, steps: int) -> list[float]:
    rates = [scheduler.get_last_lr()[0]]
    for _ in range(steps):
        scheduler.optimizer.step()
        scheduler.step()
        rates.append(scheduler.get_last_lr()[0])
    return rates


def test_without_decay_it_is_linear_lr() -> None:
    ours = _rates(WarmupDecay(_optimizer(), warmup_steps=100, start_factor=0.01), 150)
    theirs = torch.optim.lr_scheduler.LinearLR(_optimizer(), start_factor=0.01, total_iters=100)
    expected = [theirs.get_last_lr()[0]]
    for _ in range(150):
        theirs.optimizer.step()
        theirs.step()
        expected.append(theirs.get_last_lr()[0])
    assert ours == pytest.approx(expected, abs=1e-12)  # LinearLR multiplies step by step: ~100 float64 roundings


def test_linear_and_cosine_decay_reach_zero_at_the_last_step() -> None:
    linear = _rates(WarmupDecay(_optimizer(), warmup_steps=2, decay="linear", total_steps=6), 7)
    assert linear == pytest.approx([0.01, 0.505, 1.0, 0.75, 0.5, 0.25, 0.0, 0.0])  # float64 of decimals: an ulp
    cosine = _rates(WarmupDecay(_optimizer(), warmup_steps=2, decay="cosine", total_steps=6), 7)
    halfway = [(1 + math.cos(math.pi * k / 4)) / 2 for k in range(5)]
    assert cosine == pytest.approx([0.01, 0.505, *halfway, 0.0])  # float64 cosines: a few ulps


def test_a_decay_without_the_run_length_says_so() -> None:
    scheduler = WarmupDecay(_optimizer(), decay="linear")
    scheduler.optimizer.step()
    with pytest.raises(PlausibilityError, match=r"^WarmupDecay: decay 'linear' needs total_steps"):
        scheduler.step()


def test_the_run_length_is_not_restored_from_a_checkpoint() -> None:
    saved = WarmupDecay(_optimizer(), decay="linear", total_steps=10)
    _rates(saved, 3)
    resumed = WarmupDecay(_optimizer(), decay="linear", total_steps=20)
    resumed.load_state_dict(saved.state_dict())
    assert resumed.total_steps == 20 and resumed.last_epoch == 3

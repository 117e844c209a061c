"""Reducing per-token log-probabilities to one score per text: their sum or their mean."""

from collections.abc import Sequence
from typing import get_args

import numpy as np

from plausibility.errors import UnknownNameError
from plausibility.lm.protocol import Reduction

REDUCTIONS: tuple[str, ...] = get_args(Reduction)


def check_reduction(reduction: str) -> None:
    """Fail on a reduction name that is not one of `REDUCTIONS`."""
    if reduction not in REDUCTIONS:
        raise UnknownNameError("reduction", reduction, REDUCTIONS)


def reduce_logprobs(token_logprobs: Sequence[np.ndarray], reduction: Reduction) -> np.ndarray:
    """One float64 per text: the sum or the mean of its token log-probabilities, in input order."""
    check_reduction(reduction)
    reduce = np.sum if reduction == "sum" else np.mean
    return np.array([reduce(values, dtype=np.float64) for values in token_logprobs], dtype=np.float64)

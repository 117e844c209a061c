"""What the scorers read off a model's logits at each scored position: the true token's log-probability or rank."""

from collections.abc import Callable

import torch

# (n, vocabulary) logits and the (n,) true tokens -> one value per row.
Measure = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def target_logprobs(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Natural-log probability of each row's true token, computed in float32, returned as float64."""
    logits = logits.float()
    return (logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1) - logits.logsumexp(-1)).double()


def target_ranks(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Rank of each row's true token in the model's distribution: 1 for the most probable, int64."""
    chosen = logits.gather(-1, targets.unsqueeze(-1))
    return (logits > chosen).sum(-1) + 1

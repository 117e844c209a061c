"""What the scorers read off a model's logits at each scored position: the true token's log-probability or rank."""

from collections.abc import Callable

import torch

# (n, vocabulary) logits and the (n,) true tokens -> one value per row (or one row of values per row).
Measure = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def target_logprobs(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Natural-log probability of each row's true token, computed in float32, returned as float64."""
    logits = logits.float()
    return (logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1) - logits.logsumexp(-1)).double()


def target_ranks(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Rank of each row's true token in the model's distribution: 1 for the most probable, int64."""
    chosen = logits.gather(-1, targets.unsqueeze(-1))
    return (logits > chosen).sum(-1) + 1


def with_word_start_mass(word_starts: torch.Tensor) -> Measure:
    """A measure of two columns: each row's true-token log-probability, and the log of the probability mass
    the row puts on tokens that begin a word (`word_starts`: their ids), both float64."""

    def measure(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logprobs = logits.float().log_softmax(-1)
        chosen = logprobs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
        starts = logprobs.index_select(-1, word_starts.to(logits.device)).logsumexp(-1)
        return torch.stack([chosen, starts], dim=-1).double()

    return measure

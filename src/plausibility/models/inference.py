"""A net's logits for many items at once: batched by length, under `torch.inference_mode()`, in input order."""

from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np
import torch
from torch import nn

Item = TypeVar("Item")
DEFAULT_BATCH_SIZE = 256  # triples per forward pass when a model names none


def net_logits(
    net: nn.Module,
    items: Sequence[Item],
    featurize: Callable[[list[Item]], dict[str, torch.Tensor]],
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> np.ndarray:
    """One logit per item (float64, input order), the net in eval mode while it scores.

    Items are sorted by the length of their text so that each batch pads little; the logits are scattered
    back to input order, so they never depend on how the items were ordered or batched beyond padding.
    """
    order = sorted(range(len(items)), key=lambda i: len(str(items[i])))
    scores = np.empty(len(items), dtype=np.float64)
    device = next(net.parameters()).device
    was_training = net.training
    net.eval()
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            features = featurize([items[i] for i in chunk])
            logits = net(**{name: tensor.to(device) for name, tensor in features.items()})
            scores[chunk] = logits.float().cpu().numpy()
    net.train(was_training)
    return scores

"""`WarmupDecay`: a linear warm-up, then the learning rate held, or decayed to zero by the run's last step."""

import math
from typing import Literal

from torch.optim import Optimizer
from torch.optim.lr_scheduler import LambdaLR

from plausibility.errors import PlausibilityError

Decay = Literal["none", "linear", "cosine"]


class WarmupDecay(LambdaLR):
    """The base rate times `factor(step)`, stepped once per optimizer step.

    Warm-up: `start_factor + (1 - start_factor) * step / warmup_steps` for `step < warmup_steps` (with
    `decay="none"` this is `LinearLR(start_factor, total_iters=warmup_steps)`). After it, with
    `p = (step - warmup_steps) / (total_steps - warmup_steps)`: "none" keeps 1, "linear" gives `1 - p`,
    "cosine" gives `(1 + cos(pi * p)) / 2`; both decays reach 0 at `total_steps` and stay there.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        warmup_steps: int = 0,
        start_factor: float = 0.01,
        decay: Decay = "none",
        total_steps: int | None = None,
    ) -> None:
        """Args:
        optimizer: the optimizer whose rates are scheduled.
        warmup_steps: steps of linear warm-up from `start_factor` to the full rate.
        start_factor: the fraction of the rate at step 0.
        decay: what follows the warm-up.
        total_steps: the step at which a decay reaches zero; `PlausibilityModule` fills it with the run's
            length (the trainer's `max_steps`, or its epochs' steps) when it is left out.
        """
        if decay not in ("none", "linear", "cosine"):
            raise PlausibilityError(f"WarmupDecay: unknown decay {decay!r}; use none, linear or cosine")
        self.warmup_steps = warmup_steps
        self.start_factor = start_factor
        self.decay = decay
        self.total_steps = total_steps
        super().__init__(optimizer, self.factor)

    def state_dict(self) -> dict:
        # The run's length is the current run's: a resumed run given more steps decays over them.
        return {key: value for key, value in super().state_dict().items() if key != "total_steps"}

    def factor(self, step: int) -> float:
        """The multiple of the base rate at optimizer step `step` (0 before the first step)."""
        if step < self.warmup_steps:
            return self.start_factor + (1 - self.start_factor) * step / self.warmup_steps
        if self.decay == "none" or step == self.warmup_steps:
            return 1.0  # also where a decay starts, so the rate at step 0 never needs the run's length
        if self.total_steps is None:
            raise PlausibilityError(f"WarmupDecay: decay {self.decay!r} needs total_steps, the run's length; set it")
        span = max(1, self.total_steps - self.warmup_steps)
        progress = min(1.0, (step - self.warmup_steps) / span)
        return 1 - progress if self.decay == "linear" else (1 + math.cos(math.pi * progress)) / 2

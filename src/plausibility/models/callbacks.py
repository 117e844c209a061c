"""Checkpointing for `plausibility fit`: the best checkpoint by validation AUC, and always the latest state."""

import threading
from typing import Any

from lightning.pytorch import LightningModule, Trainer
from lightning.pytorch.callbacks import ModelCheckpoint
from lightning.pytorch.utilities.exceptions import SIGTERMException

# Set while a run's training loop runs, when Lightning's own SIGTERM handler is in place: a SIGTERM then stops the
# run after the batch it is in, once `last.ckpt` is saved, instead of at once.
TRAINING = threading.Event()


class BestAndLastModelCheckpoint(ModelCheckpoint):
    """ModelCheckpoint whose `last.ckpt` holds the latest state, whatever the monitored metric did.

    Lightning 2.6 rewrites `last.ckpt` only in a step that also saved a top-k checkpoint, so a run whose
    final validation was not its best kept an older `last.ckpt`: evaluating the trained model, or resuming
    its schedule, silently went back to that step. This one also refreshes `last.ckpt` after every
    validation, every `last_every_n_steps` optimizer steps, and when training ends, so a run killed
    between validations resumes from at most that many steps back. A run stopped by SIGTERM (a scheduler
    pre-empting it) saves `last.ckpt` at the step it stops after, so `--ckpt_path` resumes it exactly.
    """

    def __init__(
        self,
        dirpath: str | None = None,
        filename: str | None = None,
        monitor: str | None = None,
        mode: str = "min",
        save_top_k: int = 1,
        save_last: bool = True,
        last_every_n_steps: int = 50,
    ) -> None:
        """Args:
        dirpath, filename, monitor, mode, save_top_k, save_last: as for `ModelCheckpoint`.
        last_every_n_steps: optimizer steps between refreshes of `last.ckpt` in training; 0 for none.
        """
        super().__init__(
            dirpath=dirpath, filename=filename, monitor=monitor, mode=mode, save_top_k=save_top_k, save_last=save_last
        )
        self.last_every_n_steps = last_every_n_steps
        self._last_step_refreshed = -1

    def on_train_batch_end(
        self, trainer: Trainer, pl_module: LightningModule, outputs: Any, batch: Any, batch_idx: int
    ) -> None:
        super().on_train_batch_end(trainer, pl_module, outputs, batch, batch_idx)
        step = trainer.global_step
        if self.last_every_n_steps > 0 and step % self.last_every_n_steps == 0 and step != self._last_step_refreshed:
            self._last_step_refreshed = step  # micro-batches of one accumulated step share it
            saved = self._last_global_step_saved
            self._refresh_last(trainer)
            # A validation ending at this step must still save its top-k checkpoint (and last.ckpt again).
            self._last_global_step_saved = saved

    def on_train_start(self, trainer: Trainer, pl_module: LightningModule) -> None:
        super().on_train_start(trainer, pl_module)
        TRAINING.set()

    def on_exception(self, trainer: Trainer, pl_module: LightningModule, exception: BaseException) -> None:
        super().on_exception(trainer, pl_module, exception)
        TRAINING.clear()
        if isinstance(exception, SIGTERMException):  # raised between batches: the state is a step's end
            self._refresh_last(trainer)

    def on_validation_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        super().on_validation_end(trainer, pl_module)
        self._refresh_last(trainer)

    def on_train_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        super().on_train_end(trainer, pl_module)
        TRAINING.clear()
        self._refresh_last(trainer)

    def _refresh_last(self, trainer: Trainer) -> None:
        # skipped in sanity checks, fast_dev_run, outside fit, and when this step is already saved
        if self.save_last and not self._should_skip_saving_checkpoint(trainer):
            self._save_last_checkpoint(trainer, self._monitor_candidates(trainer))

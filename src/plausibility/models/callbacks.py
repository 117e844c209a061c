"""Checkpointing for `plausibility fit`: the best checkpoint by validation AUC, and always the latest state."""

from lightning.pytorch import LightningModule, Trainer
from lightning.pytorch.callbacks import ModelCheckpoint


class BestAndLastModelCheckpoint(ModelCheckpoint):
    """ModelCheckpoint whose `last.ckpt` holds the latest state, whatever the monitored metric did.

    Lightning 2.6 rewrites `last.ckpt` only in a step that also saved a top-k checkpoint, so a run whose
    final validation was not its best kept an older `last.ckpt`: evaluating the trained model, or resuming
    its schedule, silently went back to that step. This one also refreshes `last.ckpt` after every
    validation and when training ends.
    """

    def on_validation_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        super().on_validation_end(trainer, pl_module)
        self._refresh_last(trainer)

    def on_train_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        super().on_train_end(trainer, pl_module)
        self._refresh_last(trainer)

    def _refresh_last(self, trainer: Trainer) -> None:
        # skipped in sanity checks, fast_dev_run, outside fit, and when this step is already saved
        if self.save_last and not self._should_skip_saving_checkpoint(trainer):
            self._save_last_checkpoint(trainer, self._monitor_candidates(trainer))

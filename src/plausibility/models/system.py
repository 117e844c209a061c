"""`PlausibilityModule`: the shared objective, BCE of attested vs pseudo-negative events (thesis 6.5)."""

from collections import defaultdict
from typing import TYPE_CHECKING, Literal

import lightning as L
import numpy as np
import torch
import torch.nn.functional as F
from lightning.pytorch.cli import LRSchedulerCallable, OptimizerCallable
from lightning.pytorch.utilities import rank_zero_warn
from torch import nn

from plausibility.errors import IncompatibleCheckpointError
from plausibility.metrics import roc_auc
from plausibility.models.abstraction_sampling import sample_cells
from plausibility.models.datamodule import EventBatch, PairBatch
from plausibility.models.inference import DEFAULT_BATCH_SIZE, net_logits
from plausibility.models.net_lexicon import net_lexicon
from plausibility.models.schedules import WarmupDecay
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import AbstractionGrid


class PlausibilityModule(L.LightningModule):
    """Trains any net on pairs `(e, e')` with `e` labelled 1 and `e'` labelled 0; validates by AUC.

    With `abstractions > 0` this is ConceptMax: each event is scored with that many sampled abstractions
    plus itself, reduced by LogSumExp, and evaluated by the hard maximum over all its abstractions.
    Validation and test log `{stage}/auc_{dataset}` over whole evaluation halves. A checkpoint also holds
    the random states of the abstraction sampling and of torch (dropout), so a resumed run takes the same
    steps as one never stopped.
    """

    def __init__(
        self,
        net: nn.Module,
        vocabulary: list[str] | None = None,
        abstractions: int = 0,
        min_depth: int = 4,
        wsd: Literal["mfs", "gloss"] = "mfs",
        eval_batch_size: int = DEFAULT_BATCH_SIZE,
        seed: int = 0,
        optimizer: OptimizerCallable = torch.optim.AdamW,
        scheduler: LRSchedulerCallable | None = None,
        init_from: str | None = None,
    ) -> None:
        """Args:
        net: a net with `featurize(triples)` and `forward(**features) -> logits`.
        vocabulary: the training nouns (linked from the data by `plausibility fit`); WordNet synsets whose
            lemma is not among them are dropped from chains and abstractions.
        abstractions: ConceptMax's sampled abstractions per event in training (the thesis uses 3), drawn
            uniformly from the event's grid; 0 for a plain classifier.
        min_depth: synsets shallower than this are dropped from chains (the thesis uses 4).
        wsd: word-sense disambiguation of subjects and objects for chains and abstractions, in training
            and evaluation alike.
        eval_batch_size: triples per forward pass when scoring evaluation events.
        seed: seed of the abstraction sampling.
        optimizer: the optimizer, built over all parameters.
        scheduler: a learning-rate schedule stepped every optimizer step (e.g. a linear warm-up); a
            `WarmupDecay` without `total_steps` decays over the trainer's steps (`max_steps`, else its epochs').
        init_from: a checkpoint of `plausibility fit` whose net weights this one starts from (e.g. a
            trained classifier's for ConceptMax); the optimizer and schedule start afresh.
        """
        super().__init__()
        # Under `plausibility fit` the saved hyperparameters are the resolved config, `net` included, which
        # is what `plausibility.scorers.trained` rebuilds the model from.
        self.save_hyperparameters()
        self.net = net
        self.lexicon = net_lexicon(net, vocabulary, min_depth=min_depth, wsd=wsd)
        self.abstractions = abstractions
        self.eval_batch_size = eval_batch_size
        self.rng = np.random.default_rng(seed)
        self.optimizer = optimizer
        self.scheduler = scheduler
        self._evaluated: dict[str, list[tuple[list[int], np.ndarray, list[int]]]] = defaultdict(list)
        self._resumed_torch_rng: torch.Tensor | None = None
        if init_from is not None:
            self._load_net(init_from)

    def evaluation_scores(self, triples: list[Triple]) -> np.ndarray:
        """Each event's score as the model is evaluated: its logit, or ConceptMax's hard maximum over its grid.

        Every distinct cell of the events' grids is scored once; a net that reads senses gets each cell with
        its event's chains.
        """
        if not self.abstractions:
            return net_logits(self.net, triples, self.net.featurize, self.eval_batch_size)
        grids = self.lexicon.abstractor.grids(triples)
        if hasattr(self.net, "featurize_abstractions"):
            featurize, cells_of = self.net.featurize_abstractions, lambda grid: grid.cells()
        else:
            featurize, cells_of = self.net.featurize, lambda grid: grid.triples()
        distinct = sorted({cell for grid in grids for cell in cells_of(grid)}, key=str)
        logits = dict(zip(distinct, net_logits(self.net, distinct, featurize, self.eval_batch_size), strict=True))
        return np.array([max(logits[cell] for cell in cells_of(grid)) for grid in grids], dtype=np.float64)

    def training_logits(self, triples: list[Triple]) -> torch.Tensor:
        """Training-time logits of events, shape (n,); ConceptMax's LogSumExp over sampled abstractions."""
        if not self.abstractions:
            return self._logits(triples)
        groups = [self.sampled_abstractions(grid) for grid in self.lexicon.abstractor.grids(triples)]
        logits = self._logits([triple for group in groups for triple in group])  # (sum of group sizes,)
        rows = torch.tensor([row for row, group in enumerate(groups) for _ in group], device=logits.device)
        columns = torch.tensor([column for group in groups for column in range(len(group))], device=logits.device)
        # Events with fewer abstractions than sampled leave -inf slots, which LogSumExp ignores.
        table = logits.new_full((len(groups), 1 + self.abstractions), float("-inf"))
        table = table.index_put((rows, columns), logits)  # (n, 1 + abstractions)
        return torch.logsumexp(table, dim=1)

    def sampled_abstractions(self, grid: "AbstractionGrid") -> list[Triple]:
        """The event, then the abstractions drawn for it this step (fewer when its grid has fewer)."""
        cols = grid.shape[1]
        triples = grid.triples()
        cells = sample_cells(grid.shape, self.abstractions, self.rng)
        return [grid.event, *(triples[row * cols + col] for row, col in cells)]

    def training_step(self, batch: PairBatch, batch_idx: int) -> torch.Tensor:
        size = len(batch.positives)
        logits = self.training_logits(batch.positives + batch.negatives)  # (2 * size,)
        if batch.targets is None:
            labels = torch.cat([logits.new_ones(size), logits.new_zeros(size)])
        else:  # a teacher's probabilities: the net learns its judgement of each event
            labels = logits.new_tensor([*batch.targets[0], *batch.targets[1]])
        loss = F.binary_cross_entropy_with_logits(logits, labels)
        accuracy = ((logits > 0) == (labels > 0.5)).float().mean()
        self.log("train/loss", loss, prog_bar=True, batch_size=size)
        self.log("train/accuracy", accuracy, batch_size=size)
        return loss

    def on_train_start(self) -> None:
        # Sized here, not in `configure_optimizers`: estimating the run's steps there builds the train loader
        # before a resumed run has restored its loops, so the loader's saved position would never be loaded.
        for config in self.trainer.lr_scheduler_configs:
            if isinstance(config.scheduler, WarmupDecay) and config.scheduler.total_steps is None:
                config.scheduler.total_steps = int(self.trainer.estimated_stepping_batches)
        # Restored here, not when the checkpoint is read: setting up the run may still draw from torch's RNG.
        if self._resumed_torch_rng is not None:
            torch.set_rng_state(self._resumed_torch_rng)
            self._resumed_torch_rng = None

    def validation_step(self, batch: EventBatch, batch_idx: int, dataloader_idx: int = 0) -> None:
        self._evaluation_step(batch)

    def on_validation_epoch_end(self) -> None:
        self._log_auc("val")

    def test_step(self, batch: EventBatch, batch_idx: int, dataloader_idx: int = 0) -> None:
        self._evaluation_step(batch)

    def on_test_epoch_end(self) -> None:
        self._log_auc("test")

    def configure_optimizers(self) -> dict:
        optimizer = self.optimizer(self.parameters())
        if self.scheduler is None:
            return {"optimizer": optimizer}
        return {"optimizer": optimizer, "lr_scheduler": {"scheduler": self.scheduler(optimizer), "interval": "step"}}

    def on_save_checkpoint(self, checkpoint: dict) -> None:
        # Lightning keeps the data order (the train loader's state) but no random state of its own.
        checkpoint["random_state"] = {"abstractions": self.rng.bit_generator.state, "torch": torch.get_rng_state()}

    def on_load_checkpoint(self, checkpoint: dict) -> None:
        state = checkpoint.get("random_state")
        if state is not None:
            self.rng.bit_generator.state = state["abstractions"]
            self._resumed_torch_rng = state["torch"]

    def _load_net(self, path: str) -> None:
        """The net's weights from another run's checkpoint, which must hold the same net."""
        from plausibility.models.checkpoint import read_checkpoint  # it imports this module

        prefix = "net."
        stored = read_checkpoint(path).get("state_dict", {})
        theirs = {name.removeprefix(prefix): value for name, value in stored.items() if name.startswith(prefix)}
        own = self.net.state_dict()
        mismatches = [f"{name} is missing there" for name in own if name not in theirs]
        mismatches += [
            f"{name} is {tuple(theirs[name].shape)} there, {tuple(own[name].shape)} here"
            for name in own
            if name in theirs and theirs[name].shape != own[name].shape
        ]
        mismatches += [f"{name} is not in this net" for name in theirs if name not in own]
        if mismatches:
            count = "1 weight differs" if len(mismatches) == 1 else f"{len(mismatches)} weights differ"
            raise IncompatibleCheckpointError(
                f"{path}: its net does not fit this one ({count}, e.g. {mismatches[0]}); "
                "give init_from a checkpoint trained with the same net and backbone"
            )
        self.net.load_state_dict(theirs)

    def _logits(self, triples: list[Triple]) -> torch.Tensor:
        features = self.net.featurize(triples)
        return self.net(**{name: tensor.to(self.device) for name, tensor in features.items()})

    def _evaluation_step(self, batch: EventBatch) -> None:
        scores = self.evaluation_scores(batch.triples)
        self._evaluated[batch.dataset].append((batch.indices, scores, batch.labels))

    def _log_auc(self, stage: str) -> None:
        """`{stage}/auc_{dataset}` for each evaluation set, and their mean as `{stage}/auc` (the checkpoint monitor)."""
        aucs = []
        for dataset, parts in sorted(self._evaluated.items()):
            indices = torch.tensor([i for part in parts for i in part[0]], device=self.device)
            scores = torch.tensor(np.concatenate([part[1] for part in parts]), device=self.device)
            labels = torch.tensor([y for part in parts for y in part[2]], device=self.device)
            if self.trainer.world_size > 1:
                # Distributed samplers pad with repeated events; the indices let each count once.
                indices, scores, labels = (self.all_gather(t).flatten() for t in (indices, scores, labels))
            unique = {int(i): (float(s), int(y)) for i, s, y in zip(indices, scores, labels, strict=True)}
            events = [unique[i] for i in sorted(unique)]
            if len({y for _, y in events}) < 2:
                rank_zero_warn(f"{stage}/auc_{dataset} skipped: the evaluated events hold one class only")
                continue
            auc = roc_auc([y for _, y in events], [s for s, _ in events])  # the AUC every evaluation door gives
            self.log(f"{stage}/auc_{dataset}", auc, prog_bar=True)
            aucs.append(auc)
        if aucs:
            self.log(f"{stage}/auc", float(np.mean(aucs)))
        self._evaluated.clear()

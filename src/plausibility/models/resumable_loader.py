"""A training DataLoader whose place in the data order is part of the checkpoint, so a resumed run sees the rest."""

from collections.abc import Iterator
from itertools import islice
from typing import Any

from torch.utils.data import DataLoader, Dataset, DistributedSampler


class ResumableSampler(DistributedSampler):
    """DistributedSampler's shuffle (seeded by `seed + epoch`, split over ranks), begun `position` samples in.

    Lightning calls `set_epoch` at each epoch's start; a new epoch starts from its first sample.
    """

    def __init__(self, dataset: Dataset, num_replicas: int = 1, rank: int = 0, seed: int = 0) -> None:
        super().__init__(dataset, num_replicas=num_replicas, rank=rank, shuffle=True, seed=seed)
        self.position = 0

    def set_epoch(self, epoch: int) -> None:
        if epoch != self.epoch:
            self.position = 0
        super().set_epoch(epoch)

    def __iter__(self) -> Iterator[int]:
        return islice(super().__iter__(), self.position, None)


class ResumableLoader(DataLoader):
    """A DataLoader over a `ResumableSampler` that counts the batches it has handed out.

    The count is taken where batches leave the loader, not where the sampler is read, so batches that
    workers prepared ahead are not counted as seen. Lightning's fit loop saves `state_dict()` in the
    checkpoint and loads it before the resumed run iterates.
    """

    sampler: ResumableSampler

    def __iter__(self) -> Iterator[Any]:
        for batch in super().__iter__():
            self.sampler.position = min(self.sampler.position + self.batch_size, len(self.sampler))
            yield batch

    def state_dict(self) -> dict[str, int]:
        return {"epoch": self.sampler.epoch, "position": self.sampler.position}

    def load_state_dict(self, state: dict[str, int]) -> None:
        self.sampler.epoch = state["epoch"]
        self.sampler.position = state["position"]

"""`PairsDataModule`: training pairs (attested, pseudo-negative) and the labelled Pep-3k / 20Q halves.

A pairs file may also carry a teacher's probabilities of both events (`target`, `negative_target`); a net then
learns those in place of 1 and 0, which distils the teacher into it.
"""

from collections.abc import Sequence
from functools import cached_property
from typing import NamedTuple

import lightning as L
import torch
from torch.utils.data import DataLoader, Dataset

from plausibility.benchmarks.datasets import DatasetName, load_plausibility_set
from plausibility.corpus.artefacts import PAIR_COLUMNS, read_pair_targets, read_pairs
from plausibility.errors import DataFormatError
from plausibility.lexicon.event_lemmas import EventLemmas
from plausibility.models.resumable_loader import ResumableLoader, ResumableSampler
from plausibility.resources.paths import resolve_data_path
from plausibility.triple import Triple


class PairBatch(NamedTuple):
    """Attested events and their pseudo-negatives, aligned; with a teacher's probabilities of each where the pairs
    file has them (attested events', then negatives')."""

    positives: list[Triple]
    negatives: list[Triple]
    targets: tuple[list[float], list[float]] | None = None


class EventBatch(NamedTuple):
    """Labelled evaluation events with their index in the set, so results gathered across processes dedupe."""

    dataset: str
    indices: list[int]
    triples: list[Triple]
    labels: list[int]


class _Pairs(Dataset):
    def __init__(self, columns: dict[str, list[str]], targets: tuple[list[float], list[float]] | None) -> None:
        self.columns = columns
        self.targets = targets

    def __len__(self) -> int:
        return len(self.columns["subject"])

    def __getitem__(self, index: int) -> tuple[Triple, Triple, tuple[float, float] | None]:
        c = self.columns
        return (
            Triple(c["subject"][index], c["verb"][index], c["object"][index]),
            Triple(c["negative_subject"][index], c["negative_verb"][index], c["negative_object"][index]),
            None if self.targets is None else (self.targets[0][index], self.targets[1][index]),
        )


class _Events(Dataset):
    """A benchmark half's events as their lemmas, as every evaluation door scores them."""

    def __init__(self, name: str, split: str) -> None:
        self.name = name
        events = load_plausibility_set(name, split)
        self.triples = EventLemmas()([event.triple for event in events])
        self.labels = [event.label for event in events]

    def __len__(self) -> int:
        return len(self.triples)

    def __getitem__(self, index: int) -> tuple[str, int, Triple, int]:
        return self.name, index, self.triples[index], self.labels[index]


def _collate_pairs(items: Sequence[tuple[Triple, Triple, tuple[float, float] | None]]) -> PairBatch:
    targets = None
    if items[0][2] is not None:
        targets = ([target for *_, (target, _) in items], [target for *_, (_, target) in items])
    return PairBatch([positive for positive, *_ in items], [negative for _, negative, _ in items], targets)


def _collate_events(items: Sequence[tuple[str, int, Triple, int]]) -> EventBatch:
    return EventBatch(items[0][0], [i for _, i, _, _ in items], [t for _, _, t, _ in items], [y for *_, y in items])


class PairsDataModule(L.LightningDataModule):
    """Pairs from a Parquet file for training; the valid halves for validation, the test halves for test.

    Batches hold triples, not tensors: the net tokenises them (its inputs depend on it, e.g. ConceptInject's
    synset tokens) and pads each batch to its longest event (dynamic padding).
    """

    def __init__(
        self,
        pairs: str = "training/pairs.parquet",
        batch_size: int = 32,
        eval_batch_size: int = 256,
        datasets: tuple[DatasetName, ...] = ("pep3k", "20q"),
        num_workers: int = 0,
        seed: int = 0,
    ) -> None:
        """Args:
        pairs: Parquet file with columns subject, verb, object, negative_subject, negative_verb,
            negative_object, and optionally a teacher's probabilities target and negative_target; a relative
            path not found from the working folder is read from the vendored data folder.
        batch_size: pairs per training step (each pair gives two events).
        eval_batch_size: events per validation or test step.
        datasets: the evaluation sets reported by validation and test.
        num_workers: data loader worker processes.
        seed: seed of the training order, a fresh shuffle each epoch; a resumed run continues it.
        """
        super().__init__()
        self.pairs = pairs
        self.batch_size = batch_size
        self.eval_batch_size = eval_batch_size
        self.datasets = tuple(datasets)
        self.num_workers = num_workers
        self.seed = seed

    @cached_property
    def _columns(self) -> dict[str, list[str]]:
        path = resolve_data_path(self.pairs)
        table = read_pairs(path)
        if table.num_rows == 0:
            raise DataFormatError(f"{path}: no pairs; the file is empty")
        return {name: table.column(name).to_pylist() for name in PAIR_COLUMNS}

    @cached_property
    def _targets(self) -> tuple[list[float], list[float]] | None:
        return read_pair_targets(resolve_data_path(self.pairs))

    @property
    def vocabulary(self) -> list[str]:
        """Every noun of the training pairs (subjects and objects, attested and negative), sorted."""
        c = self._columns
        nouns = set(c["subject"]) | set(c["object"]) | set(c["negative_subject"]) | set(c["negative_object"])
        return sorted(nouns)

    def transfer_batch_to_device(
        self, batch: PairBatch | EventBatch, device: torch.device, dataloader_idx: int
    ) -> PairBatch | EventBatch:
        # Batches hold triples, not tensors: features move to the device once the net has tokenised them.
        return batch

    def train_dataloader(self) -> ResumableLoader:
        pairs = _Pairs(self._columns, self._targets)
        trainer = self.trainer
        replicas, rank = (trainer.world_size, trainer.global_rank) if trainer is not None else (1, 0)
        return ResumableLoader(
            pairs,
            batch_size=self.batch_size,
            sampler=ResumableSampler(pairs, num_replicas=replicas, rank=rank, seed=self.seed),
            collate_fn=_collate_pairs,
            num_workers=self.num_workers,
            generator=self._generator(),
        )

    def val_dataloader(self) -> list[DataLoader]:
        return self._events("valid")

    def test_dataloader(self) -> list[DataLoader]:
        return self._events("test")

    def _events(self, split: str) -> list[DataLoader]:
        return [
            DataLoader(
                _Events(name, split),
                batch_size=self.eval_batch_size,
                collate_fn=_collate_events,
                num_workers=self.num_workers,
                generator=self._generator(),
            )
            for name in self.datasets
        ]

    def _generator(self) -> torch.Generator:
        # Each iteration of a DataLoader draws a seed for its workers, from the global RNG unless given a
        # generator; that draw would shift dropout's random stream between a resumed and an unbroken run.
        return torch.Generator().manual_seed(self.seed)

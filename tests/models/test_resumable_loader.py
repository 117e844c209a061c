"""The training loader's place in the data order survives a checkpoint: the resumed loader yields the rest."""

from itertools import islice

from plausibility.models.resumable_loader import ResumableLoader, ResumableSampler


def _loader(size: int = 10, batch_size: int = 3, seed: int = 0, replicas: int = 1, rank: int = 0) -> ResumableLoader:
    data = list(range(size))
    sampler = ResumableSampler(data, num_replicas=replicas, rank=rank, seed=seed)
    return ResumableLoader(data, batch_size=batch_size, sampler=sampler)


def _epoch(loader: ResumableLoader) -> list[int]:
    return [int(i) for batch in loader for i in batch]


def test_a_loader_restored_mid_epoch_yields_exactly_the_rest() -> None:
    unbroken = _loader()
    whole = _epoch(unbroken)
    assert sorted(whole) == list(range(10)) and whole != list(range(10))

    stopped = _loader()
    seen = [int(i) for batch in islice(iter(stopped), 2) for i in batch]
    state = stopped.state_dict()
    assert state == {"epoch": 0, "position": 6}
    resumed = _loader()
    resumed.load_state_dict(state)
    assert seen + _epoch(resumed) == whole
    assert resumed.state_dict() == {"epoch": 0, "position": 10}


def test_each_epoch_is_a_new_shuffle_from_its_start() -> None:
    loader = _loader()
    first = _epoch(loader)
    loader.sampler.set_epoch(0)  # the same epoch again keeps the position: nothing is left
    assert _epoch(loader) == []
    loader.sampler.set_epoch(1)
    second = _epoch(loader)
    assert sorted(second) == list(range(10)) and second != first
    again = _loader()
    again.sampler.set_epoch(1)
    assert _epoch(again) == second
    assert _epoch(_loader(seed=1)) != first


def test_ranks_share_one_shuffle_without_overlap() -> None:
    halves = [_epoch(_loader(replicas=2, rank=rank)) for rank in (0, 1)]
    assert sorted(halves[0] + halves[1]) == list(range(10)) and len(halves[0]) == 5

"""Loading with the cyclic collector paused: what the load built is set aside, and the collector runs again after."""

import gc

import pytest

from plausibility.long_lived import loading_long_lived


@pytest.fixture(autouse=True)
def _restore_collector():
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    (gc.enable if enabled else gc.disable)()


class _Node:
    def __init__(self) -> None:
        self.cycle = self


def test_the_collector_is_paused_inside_and_what_was_built_is_frozen_after() -> None:
    gc.enable()
    gc.unfreeze()
    with loading_long_lived():
        assert not gc.isenabled()
        built = [_Node() for _ in range(1000)]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(built)
    walked = {id(item) for item in gc.get_objects()}  # frozen objects are in no generation the collector walks
    assert not any(id(node) in walked for node in built)


def test_a_failing_load_still_restores_the_collector() -> None:
    gc.enable()
    with pytest.raises(RuntimeError), loading_long_lived():
        raise RuntimeError("the model did not load")
    assert gc.isenabled()


def test_a_collector_the_caller_disabled_stays_disabled() -> None:
    gc.disable()
    with loading_long_lived():
        pass
    assert not gc.isenabled()


def test_a_second_load_frees_a_model_dropped_since_the_first() -> None:
    import weakref

    gc.enable()
    with loading_long_lived():
        model = _Node()  # a cycle: only the collector can free it
    dropped = weakref.ref(model)
    del model
    assert dropped() is not None  # frozen, it is never walked
    with loading_long_lived():
        pass
    assert dropped() is None

"""Loading a model without the cyclic garbage collector walking what the load builds, again and again."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def loading_long_lived() -> Iterator[None]:
    """Pause the cyclic collector while a model loads, then set aside (`gc.freeze`) what the load built.

    Importing torch and transformers and loading a model and its lexicon allocate millions of objects
    that live as long as the process. Each collection pass the allocations trigger walks them all: about
    a second of a cold `plausibility score`, and as much again when the process ends. Frozen, they are
    never walked; the cycles scoring makes are collected as before. A second load (a report's next model)
    first collects once over everything, so a model dropped in between is freed.
    """
    enabled = gc.isenabled()
    if gc.get_freeze_count():  # a model loaded before may since have been dropped: free what only the collector can
        gc.unfreeze()
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()

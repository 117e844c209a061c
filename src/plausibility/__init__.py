"""Event plausibility, selectional preference and minimal-pair scoring with language models."""

from plausibility.triple import Triple
from plausibility.version import __version__


def __getattr__(name: str) -> object:
    # The API pulls in pandas, torch and friends: load it on first use so `import plausibility` stays light.
    if name == "load_scorer":
        from plausibility.api import load_scorer

        return load_scorer
    raise AttributeError(f"module 'plausibility' has no attribute {name!r}")


__all__ = ["Triple", "__version__", "load_scorer"]

"""Event plausibility, selectional preference and minimal-pair scoring with language models."""

from plausibility.triple import Triple
from plausibility.version import __version__

# The Python API (`plausibility.api`), importable from here.
_API = ("consistency", "evaluate", "load_lm_scorer", "load_scorer", "pairs", "score_file")


def __getattr__(name: str) -> object:
    # The API pulls in pandas, torch and friends: load it on first use so `import plausibility` stays light.
    if name in _API:
        from plausibility import api

        return getattr(api, name)
    raise AttributeError(f"module 'plausibility' has no attribute {name!r}")


__all__ = ["Triple", "__version__", *_API]

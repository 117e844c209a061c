"""Event plausibility, selectional preference and minimal-pair scoring with language models."""

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING

from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.api import load_scorer

try:
    __version__ = version("plausibility")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"


def __getattr__(name: str) -> object:
    # The API pulls in pandas, torch and friends: load it on first use so `import plausibility` stays light.
    if name == "load_scorer":
        from plausibility.api import load_scorer

        return load_scorer
    raise AttributeError(f"module 'plausibility' has no attribute {name!r}")


__all__ = ["Triple", "__version__", "load_scorer"]

"""Event plausibility, selectional preference and minimal-pair scoring with language models."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("plausibility")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

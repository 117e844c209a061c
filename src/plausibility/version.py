"""The package's version, as installed (`plausibility --version`, cards and result files name it)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("plausibility")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

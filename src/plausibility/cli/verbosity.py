"""What a command prints besides its results: one logging setup, with `-q` and `-v`.

By default our own notes show, and the libraries' chatter does not: Hugging Face's loading bars and load
reports, Lightning's tips and device lines, Python warnings raised outside this package. `-v` shows them
all (`-vv` at debug level); `-q` leaves results and errors: no notes, warnings or progress bars.
"""

import argparse
import logging
import os
import sys
import warnings
from collections.abc import Sequence

from plausibility import progress

# The libraries whose loggers speak up unless asked: their level follows the verbosity, not their own default.
LIBRARIES = ("transformers", "huggingface_hub", "lightning", "lightning.pytorch", "lightning.fabric", "nltk", "stanza")
# Lightning sets its loggers to INFO, and gives "lightning" a handler of its own, when it is imported, which
# is after this setup in a command; these loggers are made here, pinned, before it can.
PINNED = ("lightning", "lightning.pytorch", "lightning.fabric")
FLAGS = {"-q": -1, "--quiet": -1, "-v": 1, "--verbose": 1, "-vv": 2}


class _StderrHandler(logging.StreamHandler):
    """Writes to `sys.stderr` as it is at each record (a test may swap it), not as it was at setup."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> object:  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, value: object) -> None:
        pass


class _PinnedLogger(logging.Logger):
    """A library's logger whose level and handlers only this module sets (the library's own calls are ignored)."""

    def setLevel(self, level: int | str) -> None:  # noqa: N802 (logging's name)
        pass

    def addHandler(self, handler: logging.Handler) -> None:  # noqa: N802
        pass


def _library_logger(name: str) -> logging.Logger:
    manager = logging.Logger.manager
    if name in manager.loggerDict:  # already imported (a test, or a second call): its setup is done
        return logging.getLogger(name)
    previous = manager.loggerClass
    manager.setLoggerClass(_PinnedLogger if name in PINNED else logging.Logger)
    try:
        return logging.getLogger(name)
    finally:
        manager.loggerClass = previous


def add_arguments(parser: argparse.ArgumentParser, top_level: bool) -> None:
    """`-q` and `-v`, before or after the subcommand (the subcommand's copies leave the top level's alone)."""
    default = 0 if top_level else argparse.SUPPRESS
    parser.add_argument("-q", "--quiet", action="count", default=default, help="print nothing but results and errors")
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=default,
        help="also show the libraries' logs, warnings and loading bars (-vv: debug)",
    )


def pop_flags(arguments: Sequence[str]) -> tuple[int, list[str]]:
    """The verbosity flags in a list handed on to another parser (LightningCLI's), and the list without them."""
    return sum(FLAGS.get(a, 0) for a in arguments), [a for a in arguments if a not in FLAGS]


def configure(verbosity: int) -> None:
    """Set up logging, warnings and progress bars for `verbosity` (-1 quiet, 0 default, 1 verbose, 2 debug)."""
    ours = logging.ERROR if verbosity < 0 else logging.INFO if verbosity < 2 else logging.DEBUG
    theirs = logging.ERROR if verbosity < 1 else ours
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _StderrHandler)]:
        root.removeHandler(handler)
    handler = _StderrHandler()
    handler.setFormatter(logging.Formatter("%(message)s" if verbosity < 1 else "%(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(theirs)
    logging.getLogger("plausibility").setLevel(ours)
    for name in LIBRARIES:
        logging.Logger.setLevel(_library_logger(name), theirs)
    for name in PINNED:  # imported before this setup (a test): its own handlers go, and its records come here
        logger = logging.getLogger(name)
        for own in list(logger.handlers):
            logger.removeHandler(own)
        logger.propagate = True
    # Read when the libraries are first imported, which is after this in a command.
    os.environ["TRANSFORMERS_VERBOSITY"] = logging.getLevelName(theirs).lower()
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "0" if verbosity > 0 else "1"
    if "transformers" in sys.modules:  # already imported (a test, or a second call)
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity(theirs)
        (hf_logging.enable_progress_bar if verbosity > 0 else hf_logging.disable_progress_bar)()
    if "huggingface_hub" in sys.modules:
        from huggingface_hub import utils as hub_utils

        (hub_utils.enable_progress_bars if verbosity > 0 else hub_utils.disable_progress_bars)()
    warnings.resetwarnings()
    if verbosity < 1:
        warnings.simplefilter("ignore")
    if verbosity == 0:
        warnings.filterwarnings("default", module=r"plausibility(\.|$)")
    progress.set_quiet(verbosity < 0)

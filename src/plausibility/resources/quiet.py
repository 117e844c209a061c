"""The libraries' chatter while a model or WordNet loads, hidden unless the libraries may speak.

The command line hides Hugging Face's loading bars and the libraries' notes for a whole command
(`plausibility.cli.verbosity`); a Python caller gets the same by default, here, around each load. Both show once a
library's logger passes INFO: after `-v`, or a caller's own `transformers.logging.set_verbosity_info()`.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager


def libraries_may_speak(library: str = "transformers") -> bool:
    """Whether a library's notes and bars are wanted: its logger passes INFO."""
    return logging.getLogger(library).isEnabledFor(logging.INFO)


@contextmanager
def quiet_loading() -> Iterator[None]:
    """Hugging Face's loading bars hidden while a model loads or is written, unless transformers may speak."""
    from transformers.utils import logging as hf_logging

    if libraries_may_speak() or not hf_logging.is_progress_bar_enabled():
        yield
        return
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.enable_progress_bar()

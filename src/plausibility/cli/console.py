"""The console a command prints its results on: a terminal's width on a terminal, no limit in a pipe or a file."""

import os
import sys

from rich.console import Console

# Wider than any table a command prints: in a pipe or a file a table takes its natural width, so no column is
# folded and no name cut (`accuracy_at…`), and a line is not wrapped.
UNLIMITED = 10_000


def results_console() -> Console:
    """A console on stdout: on a terminal, its width; in a pipe or a file, no width limit unless `COLUMNS` sets one."""
    if sys.stdout.isatty() or "COLUMNS" in os.environ:
        return Console()
    return Console(width=UNLIMITED)

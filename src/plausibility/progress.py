"""Progress of long jobs: a rich bar on stderr with items/s, shown only on a terminal and when not quiet."""

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

_settings = {"quiet": False}
# The bar on screen: a job started inside another (ConceptMax's grids inside an AUC run) adds a row to it,
# since rich draws one live display at a time.
_live: list[Progress] = []


def set_quiet(quiet: bool) -> None:
    """Hide every bar (`-q`), whatever stderr is."""
    _settings["quiet"] = quiet


def shown() -> bool:
    """Whether bars are drawn: stderr is a terminal and the command is not quiet."""
    return not _settings["quiet"] and sys.stderr.isatty()


class _RateColumn(ProgressColumn):
    """Items per second, in the task's unit (`1,234 triples/s`)."""

    def render(self, task: Task) -> Text:
        unit = task.fields.get("unit", "items")
        return Text("" if task.speed is None else f"{task.speed:,.0f} {unit}/s", style="progress.data.speed")


@contextmanager
def progress_bar(
    description: str, total: int | None, unit: str = "items", wanted: bool = True
) -> Iterator[Callable[[int], None]]:
    """A bar for one job; yields `advance(n)`, to call as each `n` items are done.

    Nothing is drawn when the caller does not want it or when bars are not `shown()`.
    """
    if not wanted:
        yield lambda n: None
        return
    if _live:
        bar = _live[-1]
        task = bar.add_task(description, total=total, unit=unit)
        try:
            yield lambda n: bar.advance(task, n)
        finally:
            bar.remove_task(task)
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[unit]}"))
    columns += (_RateColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    bar = Progress(*columns, console=Console(stderr=True), disable=not shown(), transient=True)
    with bar:
        _live.append(bar)
        task = bar.add_task(description, total=total, unit=unit)
        try:
            yield lambda n: bar.advance(task, n)
        finally:
            _live.pop()

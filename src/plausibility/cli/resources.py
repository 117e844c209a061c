"""`plausibility resources`: where each offline default was found, and whether it loads."""

import argparse

from rich.table import Table

from plausibility.cli.console import results_console


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "resources",
        help="check that every offline model, lexicon and data file loads",
        description="Load every offline default once and print where it was found, then the package's version and "
        "the default model's name and version. Exit 0 only if all load.",
        epilog="Example: plausibility resources   (PLAUSIBILITY_CACHE moves the cache folder)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from plausibility.resources.paths import cache_dir
    from plausibility.resources.report import check_resources
    from plausibility.scorers.shipped import DEFAULT_MODEL, shipped_model
    from plausibility.version import __version__

    statuses = check_resources()
    table = Table(title=f"plausibility {__version__} resources (cache: {cache_dir()})")
    for column in ("role", "default", "status", "location", "detail"):
        table.add_column(column, overflow="fold")
    for status in statuses:
        mark = "[green]ok[/green]" if status.ok else "[red]missing[/red]"
        table.add_row(status.role, status.name, mark, status.location, status.detail)
    console = results_console()
    console.print(table)
    default = shipped_model(DEFAULT_MODEL)
    console.print(f"default model: [bold]{default.name} {default.version}[/bold], {default.summary}", soft_wrap=True)
    console.print("plausibility models lists every shipped model; plausibility models default prints its card")
    return 0 if all(status.ok for status in statuses) else 1

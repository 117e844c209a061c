"""`plausibility resources`: where each offline default was found, and whether it loads."""

import argparse

from rich.console import Console
from rich.table import Table

from plausibility.resources import cache_dir, check_resources
from plausibility.scorers.default import default_choice, default_scorer


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "resources",
        help="check that every offline model, lexicon and data file loads",
        description="Load every offline default once and print where it was found, then the default scorer and "
        "the valid AUCs it was chosen by. Exit 0 only if all load.",
        epilog="Example: plausibility resources   (PLAUSIBILITY_CACHE moves the cache folder)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    statuses = check_resources()
    table = Table(title=f"plausibility resources (cache: {cache_dir()})")
    for column in ("role", "default", "status", "location", "detail"):
        table.add_column(column, overflow="fold")
    for status in statuses:
        mark = "[green]ok[/green]" if status.ok else "[red]missing[/red]"
        table.add_row(status.role, status.name, mark, status.location, status.detail)
    console = Console()
    console.print(table)
    choice = default_choice()
    if choice is None:
        console.print(f"default scorer: {default_scorer()} (no measured choice ships)")
    else:
        console.print(f"default scorer: [bold]{choice.spec}[/bold], the highest mean valid AUC ({choice.measured}):")
        for spec in sorted(choice.valid_auc, key=choice.mean, reverse=True):
            figures = ", ".join(f"{dataset} {auc:.3f}" for dataset, auc in choice.valid_auc[spec].items())
            console.print(f"  {spec}: mean {choice.mean(spec):.3f} ({figures})")
    return 0 if all(status.ok for status in statuses) else 1

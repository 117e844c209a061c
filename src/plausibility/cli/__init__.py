"""The `plausibility` command: one thin subcommand per public entry point."""

import argparse
import sys
from collections.abc import Sequence

from plausibility import __version__
from plausibility.cli import consistency, demo, evaluate, export, extract, pairs, report, resources, score, train
from plausibility.errors import PlausibilityError

# Each module adds one subparser whose `run(args) -> int` calls the Python API and renders the result.
COMMANDS = (demo, resources, score, train, export, evaluate, consistency, pairs, extract, report)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plausibility",
        description="Train, evaluate and query models of event plausibility; score LMs on minimal pairs.",
        epilog="Run `plausibility COMMAND --help` for the options and an example of each command.",
    )
    parser.add_argument("--version", action="version", version=f"plausibility {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; user errors become one line on stderr and exit code 1."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except PlausibilityError as error:
        print(f"plausibility {args.command}: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"plausibility {args.command}: interrupted", file=sys.stderr)
        return 130

"""The `plausibility` command: one thin subcommand per public entry point."""

import argparse
import signal
import sys
from collections.abc import Sequence

from plausibility.cli import (
    consistency,
    demo,
    evaluate,
    export,
    extract,
    models,
    pairs,
    report,
    resources,
    score,
    serve,
    train,
    verbosity,
)
from plausibility.errors import CommandLineError, PlausibilityError, Terminated
from plausibility.version import __version__

# Each module adds one subparser whose `run(args) -> int` calls the Python API and renders the result.
COMMANDS = (demo, resources, models, score, serve, train, export, evaluate, consistency, pairs, extract, report)


EPILOG = """Run `plausibility COMMAND --help` for the options and an example of each command.

exit codes:
  0    success
  1    bad input or a missing resource: one line on stderr names it and the fix (`resources`: one
       default does not load); a bug also exits 1, with a traceback instead of the one line
  2    the command line itself is wrong (an unknown option, a missing argument, options that do not go
       together): usage or one line on stderr
  130  interrupted (Ctrl-C)
  143  terminated (SIGTERM, as schedulers send before killing a job); cleaned up as for Ctrl-C; `fit` saves
       last.ckpt first, so `--ckpt_path` resumes it

output: results go to stdout; notes, warnings, errors and progress bars (on a terminal only) to stderr."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plausibility",
        description="Train, evaluate and query models of event plausibility; score LMs on minimal pairs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"plausibility {__version__}")
    verbosity.add_arguments(parser, top_level=True)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(subparsers)
    for subparser in subparsers.choices.values():
        if "-" in subparser.prefix_chars:  # fit, validate, test hand their options to LightningCLI, -q/-v too
            verbosity.add_arguments(subparser, top_level=False)
    return parser


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; user errors become one line on stderr and exit code 1."""
    args = build_parser().parse_args(argv)
    verbosity.configure(args.verbose - args.quiet)
    previous = signal.signal(signal.SIGTERM, _terminate)  # SIGTERM unwinds like Ctrl-C: partials are removed
    try:
        return args.run(args)
    except CommandLineError as error:
        print(f"plausibility {args.command}: error: {error}", file=sys.stderr)
        return 2
    except PlausibilityError as error:
        print(f"plausibility {args.command}: error: {error}", file=sys.stderr)
        return 1
    except Terminated:
        print(f"plausibility {args.command}: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print(f"plausibility {args.command}: interrupted", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGTERM, previous)

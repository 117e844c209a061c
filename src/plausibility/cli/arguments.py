"""Argument types shared by several subcommands."""

import argparse


def positive_int(value: str) -> int:
    """An argparse type: a whole number of at least 1."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value!r}")
    return int(value)

"""`ModelRequest`: a model a report is asked to measure, kept apart so the command line parses one cheaply."""

from dataclasses import dataclass


@dataclass(frozen=True)
class ModelRequest:
    """A model to report: its SPEC and the label its row carries."""

    label: str
    spec: str

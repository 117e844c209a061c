"""Exceptions the CLI turns into one line on stderr and exit code 1."""

import difflib


class PlausibilityError(Exception):
    """Base of every error caused by the user's input or environment, not by a bug."""


class CommandLineError(PlausibilityError):
    """The command line itself is wrong (a missing or extra argument, options that do not go together): exit 2."""


class ResourceMissingError(PlausibilityError):
    """An offline model, corpus or data file is not installed; the message says how to install it."""


class ResourceChangedError(PlausibilityError):
    """A file a loaded model was built from changed on disk while the model was in use; load it again."""


class DataFormatError(PlausibilityError):
    """A data file is malformed; the message names the file and line."""


class UnknownNameError(PlausibilityError):
    """A name (model, suite, parser, metric) is not known; the message lists the known ones, and the closest of
    them when a known name is spelled nearly alike (`defualt`: did you mean 'default'?)."""

    def __init__(self, kind: str, name: str, known: list[str] | tuple[str, ...]) -> None:
        # 0.75: one letter off in a name of four or more, or two swapped; not `tpu` for `cpu` (a word of three).
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.75) if isinstance(name, str) else []
        hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
        super().__init__(f"unknown {kind} {name!r}; known: {', '.join(sorted(known))}{hint}")
        self.kind, self.name, self.known = kind, name, tuple(known)

    def __reduce__(self) -> tuple[type, tuple[str, str, tuple[str, ...]]]:
        """Rebuilt from its parts, so that one raised in a worker process reaches the command line as itself."""
        return type(self), (self.kind, self.name, self.known)


class InvalidTripleError(PlausibilityError, ValueError):
    """A triple given to the Python API is not three words (a word too long, two words, punctuation alone); a
    `ValueError` too, as Python's own functions answer an argument of the wrong value."""


class OutputPathError(PlausibilityError):
    """An output cannot be written where asked (a folder, a read-only or virtual location); the message names it."""


class IncompatibleCheckpointError(PlausibilityError):
    """A checkpoint's weights do not fit the model they are loaded into; the message names the file and the fix."""


class DeviceUnavailableError(PlausibilityError):
    """A device was asked for that this machine does not have; the message names it and the alternatives."""


class Terminated(KeyboardInterrupt):
    """The process was asked to stop (SIGTERM, as a scheduler stops a job): handled as Ctrl-C is, exit 143.

    A KeyboardInterrupt, so everything that cleans up after Ctrl-C (partial outputs, worker pools) does so here.
    """

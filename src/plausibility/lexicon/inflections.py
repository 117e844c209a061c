"""Verb and noun forms from lemminflect's tables, read without lemminflect's spaCy hook.

Importing lemminflect imports spaCy whenever spaCy is installed, only to register token extensions this
package never uses; that import is half a second of every cold `plausibility score`. So lemminflect is
imported with spaCy held back (unless spaCy is already in memory, when the hook costs nothing).
"""

import importlib
import importlib.abc
import sys
from functools import cache
from types import ModuleType


class _HoldBack(importlib.abc.MetaPathFinder):
    """Makes one package unimportable while installed, as if it were not there."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == self.package or name.startswith(self.package + "."):
            raise ModuleNotFoundError(f"{name} is held back while lemminflect loads", name=name)


@cache
def _lemminflect() -> ModuleType:
    if "spacy" in sys.modules or "lemminflect" in sys.modules:
        return importlib.import_module("lemminflect")
    finder = _HoldBack("spacy")
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module("lemminflect")
    finally:
        sys.meta_path.remove(finder)


def inflection(lemma: str, tag: str) -> str:
    """The form of `lemma` a Penn tag names (`VBZ`: "eat" -> "eats"); an unknown word is inflected by rule."""
    return _lemminflect().getInflection(lemma, tag=tag, inflect_oov=True)[0]


def inflections(word: str, upos: str) -> dict[str, tuple[str, ...]]:
    """Every inflection of `word` as a lemma of part of speech `upos`, by tag (empty when it is not one)."""
    return _lemminflect().getAllInflections(word, upos=upos)


def lemmas(word: str, upos: str) -> dict[str, tuple[str, ...]]:
    """The lemmas `word` may be a form of, by part of speech (`upos`: only that one)."""
    return _lemminflect().getAllLemmas(word, upos=upos)

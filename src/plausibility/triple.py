"""The subject-verb-object event every stage of the project passes around, and what a word of it may hold."""

import unicodedata
from dataclasses import dataclass

# Unicode categories no word holds: control characters (a NUL, a bell), invisible formatting characters
# (a zero-width space, a byte-order mark), surrogates, private-use characters and line or paragraph separators.
_NOT_IN_WORDS = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


@dataclass(frozen=True, slots=True)
class Triple:
    """An event as lowercased lemmas: `subject verb object` (e.g. `person breathe air`)."""

    subject: str
    verb: str
    object: str

    def __str__(self) -> str:
        return f"{self.subject} {self.verb} {self.object}"


def word_problem(word: str) -> str | None:
    """Why `word` cannot be a word of an event (a control or invisible character in it), or None when it can."""
    for character in word:
        if unicodedata.category(character) in _NOT_IN_WORDS:
            return f"holds the character U+{ord(character):04X} ({unicodedata.name(character, 'a control character')})"
    return None

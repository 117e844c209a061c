"""The subject-verb-object event every stage of the project passes around, and what a word of it may hold."""

import re
import unicodedata
from dataclasses import dataclass

# Unicode categories no word holds: control characters (a NUL, a bell), invisible formatting characters
# (a zero-width space, a byte-order mark), surrogates, private-use characters and line or paragraph separators.
_NOT_IN_WORDS = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}
# The longest word an event may hold. WordNet 3.0's longest one-word noun or verb lemma has 33 characters
# (tetrabromo-phenolsulfonephthalein), the bundled training triples' and every benchmark's longest 17
# (conceptualization): 50 leaves room for a word neither lists (pneumonoultramicroscopicsilicovolcanoconiosis, 45),
# while anything longer is a paste or an attack, on which a language model's tokenizer spends minutes and gigabytes.
MAX_WORD_LENGTH = 50
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")  # a word character that is not the underscore: a letter or a digit
# A triple's fields as every table names them.
TRIPLE_COLUMNS = ("subject", "verb", "object")


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
    if word.isprintable():  # no character of _NOT_IN_WORDS is printable: the common case, at C speed
        return None
    for character in word:
        if unicodedata.category(character) in _NOT_IN_WORDS:
            return f"holds the character U+{ord(character):04X} ({unicodedata.name(character, 'a control character')})"
    return None


def shown(word: str) -> str:
    """A word as an error quotes it: whole, or its first 20 characters when it is longer than any word may be."""
    return repr(word) if len(word) <= MAX_WORD_LENGTH else repr(word[:20] + "...")


def query_word_problem(word: str) -> str | None:
    """Why `word` cannot be a slot of an event to score, or None when it can: the rule of every door (a file's
    fields, the command line's words, the Python API's and the HTTP API's), so no model ever reads such a word.

    A word is at most `MAX_WORD_LENGTH` characters (checked first, so a huge one costs nothing more), holds no
    control or invisible character, no space (the bundled data holds no multiword slot: training triples, pairs and
    Pep-3k, 20Q, PAP, plain and reversals have one-word verbs and nouns alone) and at least one letter, digit or
    symbol: a word of punctuation alone ("...", "-") is none, while 20Q scores the object "$".
    """
    length = len(word.strip())
    if length > MAX_WORD_LENGTH:
        return f"is {length:,} characters long, more than the {MAX_WORD_LENGTH} a word may have"
    if (problem := word_problem(word)) is not None:
        return f"{problem}, which no word holds"
    if len(word.split()) != 1:
        return "is not a single word"
    if not _LETTER_OR_DIGIT.search(word) and not any(unicodedata.category(c)[0] == "S" for c in word):
        return "holds no letter, digit or symbol"
    return None

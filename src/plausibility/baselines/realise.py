"""Realising a subject-verb-object triple as an English sentence: "The {s} {v-3sg} the {o}."."""

from dataclasses import dataclass

from plausibility.errors import DataFormatError
from plausibility.lexicon.inflections import inflection
from plausibility.triple import Triple


@dataclass(frozen=True, slots=True)
class Realisation:
    """A triple's sentence with the character spans `(start, end)` of its subject and object nouns."""

    text: str
    subject: tuple[int, int]
    object: tuple[int, int]


def _inflect(verb: str, tag: str) -> str:
    head, _, particle = verb.strip().partition(" ")
    if not head:
        raise DataFormatError(f"verb {verb!r} is empty; give a verb lemma such as 'eat'")
    inflected = inflection(head, tag)
    return f"{inflected} {particle}" if particle else inflected


def third_person(verb: str) -> str:
    """The present third-person singular of a verb lemma ("fly" -> "flies"); a phrasal verb inflects its head.

    The thesis used MLConjug; lemminflect gives the same forms, irregular ones included ("be" -> "is"),
    and inflects unknown verbs by rule.
    """
    return _inflect(verb, "VBZ")


def past_participle(verb: str) -> str:
    """The past participle of a verb lemma ("eat" -> "eaten", "pick up" -> "picked up")."""
    return _inflect(verb, "VBN")


def noun_phrase(noun: str) -> str:
    """The noun with the definite article, as it opens a realised sentence ("The air")."""
    return f"The {noun}"


def passive_opening(triple: Triple) -> str:
    """ "person eat apple" -> "The apple is eaten by the": the passive sentence up to its subject."""
    return f"The {triple.object} is {past_participle(triple.verb)} by the"


def realise(triple: Triple) -> Realisation:
    """ "person breathe air" -> "The person breathes the air." with the spans of "person" and "air"."""
    opening = noun_phrase(triple.subject)
    middle = f" {third_person(triple.verb)} the "
    subject_start = len(opening) - len(triple.subject)
    object_start = len(opening) + len(middle)
    return Realisation(
        text=f"{opening}{middle}{triple.object}.",
        subject=(subject_start, len(opening)),
        object=(object_start, object_start + len(triple.object)),
    )

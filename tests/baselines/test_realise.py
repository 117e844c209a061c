import pytest

from plausibility.baselines.realise import noun_phrase, passive_opening, past_participle, realise, third_person
from plausibility.errors import DataFormatError
from plausibility.triple import Triple


def test_a_triple_becomes_a_sentence_with_its_noun_spans() -> None:
    realised = realise(Triple("person", "breathe", "air"))
    assert realised.text == "The person breathes the air."
    assert realised.text[slice(*realised.subject)] == "person"
    assert realised.text[slice(*realised.object)] == "air"


@pytest.mark.parametrize(
    ("verb", "inflected"),
    [
        ("fly", "flies"),
        ("catch", "catches"),
        ("have", "has"),
        ("be", "is"),
        ("eat", "eats"),
        ("look after", "looks after"),
    ],
)
def test_third_person_singular(verb: str, inflected: str) -> None:
    assert third_person(verb) == inflected


@pytest.mark.parametrize(
    ("verb", "participle"),
    [("eat", "eaten"), ("catch", "caught"), ("breathe", "breathed"), ("be", "been"), ("pick up", "picked up")],
)
def test_past_participle(verb: str, participle: str) -> None:
    assert past_participle(verb) == participle


def test_the_passive_opening_ends_before_the_subject() -> None:
    assert passive_opening(Triple("rock", "eat", "sandwich")) == "The sandwich is eaten by the"
    assert passive_opening(Triple("cat", "look after", "ice cream")) == "The ice cream is looked after by the"


def test_multi_word_nouns_keep_their_spans() -> None:
    realised = realise(Triple("police officer", "catch", "ice cream"))
    assert realised.text == "The police officer catches the ice cream."
    assert realised.text[slice(*realised.subject)] == "police officer"
    assert realised.text[slice(*realised.object)] == "ice cream"
    assert noun_phrase("ice cream") == "The ice cream"


def test_an_empty_verb_is_refused() -> None:
    with pytest.raises(DataFormatError, match="verb ' ' is empty"):
        third_person(" ")
    with pytest.raises(DataFormatError, match="verb '' is empty"):
        past_participle("")

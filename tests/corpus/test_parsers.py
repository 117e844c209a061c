import pytest
import stanza

from plausibility.corpus.extraction import RuleOptions, extract_triples
from plausibility.corpus.parsers import ParserSpec, clauses_from_stanza
from plausibility.errors import UnknownNameError
from plausibility.triple import Triple


def word(index: int, text: str, lemma: str, upos: str, head: int, deprel: str) -> dict[str, object]:
    return {"id": index, "text": text, "lemma": lemma, "upos": upos, "head": head, "deprel": deprel}


# Universal Dependencies parses as Stanza writes them, built by hand (no model download).
ACTIVE = [
    word(1, "The", "the", "DET", 2, "det"),
    word(2, "children", "child", "NOUN", 3, "nsubj"),
    word(3, "ate", "eat", "VERB", 0, "root"),
    word(4, "apples", "apple", "NOUN", 3, "obj"),
    word(5, "and", "and", "CCONJ", 6, "cc"),
    word(6, "pears", "pear", "NOUN", 4, "conj"),
    word(7, ".", ".", "PUNCT", 3, "punct"),
]
PASSIVE = [
    word(1, "The", "the", "DET", 2, "det"),
    word(2, "apple", "apple", "NOUN", 4, "nsubj:pass"),
    word(3, "was", "be", "AUX", 4, "aux:pass"),
    word(4, "eaten", "eat", "VERB", 0, "root"),
    word(5, "by", "by", "ADP", 7, "case"),
    word(6, "the", "the", "DET", 7, "det"),
    word(7, "child", "child", "NOUN", 4, "obl:agent"),
    word(8, ".", ".", "PUNCT", 4, "punct"),
]
DITRANSITIVE = [
    word(1, "Teachers", "teacher", "NOUN", 2, "nsubj"),
    word(2, "give", "give", "VERB", 0, "root"),
    word(3, "students", "student", "NOUN", 2, "iobj"),
    word(4, "books", "book", "NOUN", 2, "obj"),
]
PRONOUN = [
    word(1, "She", "she", "PRON", 2, "nsubj"),
    word(2, "ate", "eat", "VERB", 0, "root"),
    word(3, "apples", "apple", "NOUN", 2, "obj"),
]


def triples(options: RuleOptions) -> list[list[Triple]]:
    document = stanza.Document([ACTIVE, PASSIVE, DITRANSITIVE, PRONOUN])
    return [extract_triples(clause, options) for clause in clauses_from_stanza(document)]


def test_stanza_document_converts_to_one_clause_per_sentence() -> None:
    assert triples(RuleOptions()) == [[Triple("child", "eat", "apple")], [], [], []]


def test_stanza_passive_agent_and_coordinated_object() -> None:
    assert triples(RuleOptions(passives=True, coordinated_objects=True)) == [
        [Triple("child", "eat", "apple"), Triple("child", "eat", "pear")],
        [Triple("child", "eat", "apple")],
        [],
        [],
    ]


def test_unknown_parser_lists_the_known_ones() -> None:
    with pytest.raises(UnknownNameError, match=r"unknown parser 'udpipe'; known: spacy, stanza"):
        ParserSpec("udpipe")

from collections.abc import Sequence

import pytest
from rule_set import rule_rows

from plausibility.corpus.extraction import Argument, Clause, RuleOptions, extract_triples
from plausibility.corpus.parsers import SpacyParser
from plausibility.triple import Triple


def clause(verb: str, *arguments: tuple[str, str, str], pos: str = "VERB") -> Clause:
    return Clause(verb, pos, tuple(Argument(*argument) for argument in arguments))


def test_subject_and_object_lemmas_are_lowercased() -> None:
    found = extract_triples(clause("Eat", ("nsubj", "Child", "NOUN"), ("obj", "Apple", "NOUN")), RuleOptions())
    assert found == [Triple("child", "eat", "apple")]


@pytest.mark.parametrize(
    "arguments",
    [
        [("nsubj", "child", "PROPN"), ("obj", "apple", "NOUN")],
        [("nsubj", "child", "NOUN"), ("obj", "it", "PRON")],
        [("nsubj", "child", "NOUN")],
        [("obj", "apple", "NOUN")],
        [("nsubj", "teacher", "NOUN"), ("iobj", "student", "NOUN"), ("obj", "book", "NOUN")],
        [("nsubj", "storm", "NOUN"), ("obj", "%", "NOUN")],
    ],
)
def test_clauses_the_rule_rejects(arguments: Sequence[tuple[str, str, str]]) -> None:
    assert extract_triples(clause("eat", *arguments), RuleOptions()) == []


def test_root_must_be_a_verb() -> None:
    assert (
        extract_triples(clause("be", ("nsubj", "man", "NOUN"), ("obj", "doctor", "NOUN"), pos="AUX"), RuleOptions())
        == []
    )


def test_passive_needs_the_option() -> None:
    passive = clause("eat", ("nsubj:pass", "apple", "NOUN"), ("agent", "child", "NOUN"))
    assert extract_triples(passive, RuleOptions()) == []
    assert extract_triples(passive, RuleOptions(passives=True)) == [Triple("child", "eat", "apple")]


def test_coordinated_objects_need_the_option_and_must_be_common_nouns() -> None:
    coordinated = clause(
        "eat",
        ("nsubj", "dog", "NOUN"),
        ("obj", "apple", "NOUN"),
        ("obj:conj", "pear", "NOUN"),
        ("obj:conj", "Paris", "PROPN"),
    )
    assert extract_triples(coordinated, RuleOptions()) == [Triple("dog", "eat", "apple")]
    assert extract_triples(coordinated, RuleOptions(coordinated_objects=True)) == [
        Triple("dog", "eat", "apple"),
        Triple("dog", "eat", "pear"),
    ]


@pytest.fixture(scope="module")
def spacy_parser() -> SpacyParser:
    return SpacyParser()


def test_spacy_parser_loads_only_what_the_rule_needs(spacy_parser: SpacyParser) -> None:
    assert "ner" not in spacy_parser.nlp.pipe_names
    assert {"tagger", "parser", "lemmatizer"} <= set(spacy_parser.nlp.pipe_names)


@pytest.mark.integration
@pytest.mark.parametrize(("paragraph", "default", "extended"), rule_rows(), ids=[row[0] for row in rule_rows()])
def test_hand_written_sentences_give_the_expected_triples(
    spacy_parser: SpacyParser, paragraph: str, default: list[Triple], extended: list[Triple]
) -> None:
    clauses = list(spacy_parser.clauses([paragraph]))
    assert [t for c in clauses for t in extract_triples(c, RuleOptions())] == default
    options = RuleOptions(passives=True, coordinated_objects=True)
    assert [t for c in clauses for t in extract_triples(c, options)] == extended


def test_the_hand_written_set_is_large_enough() -> None:
    rows = rule_rows()
    assert len(rows) >= 30
    assert sum(1 for _, default, _ in rows if not default) >= 10  # rejections are covered, not only matches

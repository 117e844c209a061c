"""Queries are scored as their lemmas: `person eat apples` is `person eat apple`, unless --as-given."""

from pathlib import Path

import pandas as pd
import pytest

from plausibility.cli import main
from plausibility.lexicon.event_lemmas import EventLemmas, verb_lemma
from plausibility.query.batch import TripleColumns, score_table, score_triples
from plausibility.query.coverage import coverage_flags
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple


@pytest.fixture
def ngram_spec(fixtures: Path) -> str:
    return f"ngram:{fixtures / 'ngram_triples.tsv'}"


@pytest.fixture
def lemmas(ngram_spec: str) -> EventLemmas:
    return EventLemmas(coverage_flags(build_scorer(ngram_spec)).hierarchy)


@pytest.mark.parametrize(
    ("word", "lemma"),
    [("eats", "eat"), ("ate", "eat"), ("breathes", "breathe"), ("flies", "fly"), ("eat", "eat"), ("saw", "saw")],
)
def test_a_verb_is_its_lemma_and_a_verb_lemma_is_kept(word: str, lemma: str) -> None:
    assert verb_lemma(word) == lemma


def test_nouns_take_their_wordnet_lemma_and_unknown_words_stay(lemmas: EventLemmas) -> None:
    given = [Triple("children", "eats", "apples"), Triple("person", "eat", "glasses"), Triple("zorblax", "eat", "food")]
    assert lemmas(given) == [
        Triple("child", "eat", "apple"),
        Triple("person", "eat", "glasses"),  # WordNet lists "glasses": it is its own lemma
        Triple("zorblax", "eat", "food"),
    ]
    assert EventLemmas.columns(given, lemmas(given))["lemmatised"] == [True, False, False]


def test_an_inflected_query_scores_as_its_lemmas(ngram_spec: str, lemmas: EventLemmas) -> None:
    scorer = build_scorer(ngram_spec)
    inflected = score_triples(scorer, [Triple("persons", "eats", "breads")], lemmas).iloc[0]
    plain = score_triples(scorer, [Triple("person", "eat", "bread")]).iloc[0]
    assert inflected["score"] == plain["score"]
    assert (inflected["subject"], inflected["subject_lemma"], inflected["verb_lemma"]) == ("persons", "person", "eat")
    assert inflected["lemmatised"]
    as_given = score_triples(scorer, [Triple("persons", "eats", "breads")]).iloc[0]
    assert as_given["score"] < plain["score"]  # never counted as given


def test_a_table_is_scored_as_its_lemmas_and_flagged_on_them(ngram_spec: str, tmp_path: Path) -> None:
    source = tmp_path / "in.tsv"
    source.write_text("subject\tverb\tobject\npersons\teats\tbreads\nperson\teat\tbread\n")
    assert main(["score", "--input", str(source), "--output", str(tmp_path / "out.tsv"), "--model", ngram_spec]) == 0
    scored = pd.read_csv(tmp_path / "out.tsv", sep="\t", keep_default_na=False)
    assert scored["score"][0] == scored["score"][1]
    assert scored["subject"].tolist() == ["persons", "person"]  # the words as given are kept
    assert scored["object_lemma"].tolist() == ["bread", "bread"]
    assert scored["lemmatised"].tolist() == [True, False]
    assert (
        main(
            [
                "score",
                "--input",
                str(source),
                "--output",
                str(tmp_path / "given.tsv"),
                "--model",
                ngram_spec,
                "--as-given",
            ]
        )
        == 0
    )
    given = pd.read_csv(tmp_path / "given.tsv", sep="\t", keep_default_na=False)
    assert given["score"][0] < given["score"][1] and "lemmatised" not in given.columns


def test_score_table_without_lemmas_scores_the_words_as_given(ngram_spec: str, tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    source.write_text("subject,verb,object\npersons,eat,bread\n")
    score_table(TripleColumns(build_scorer(ngram_spec)), source, tmp_path / "out.csv", progress=False)
    scored = pd.read_csv(tmp_path / "out.csv")
    expected = build_scorer(ngram_spec).score([Triple("persons", "eat", "bread")])
    assert scored["score"].tolist() == pytest.approx(expected.tolist())  # CSV: repr, read back within an ulp

"""The Python API mirrors the CLI and accepts plain tuples."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import plausibility
from plausibility.errors import PlausibilityError
from plausibility.triple import Triple


def test_load_scorer_accepts_tuples_and_matches_triples(fixtures: Path) -> None:
    scorer = plausibility.load_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")
    from_tuples = scorer.score([("person", "eat", "food"), ("Dog", "chase", "cat")])
    from_triples = scorer.scorer.score([Triple("person", "eat", "food"), Triple("dog", "chase", "cat")])
    np.testing.assert_array_equal(from_tuples, from_triples)
    assert np.all((scorer.probability([("person", "eat", "food")]) >= 0) & (scorer.probability([("a", "b", "c")]) <= 1))
    assert scorer.explain([("person", "eat", "food")])[0].event == Triple("person", "eat", "food")


def test_score_file_matches_the_cli_path(fixtures: Path, tmp_path: Path) -> None:
    scorer = plausibility.load_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")
    source = tmp_path / "in.csv"
    source.write_text("subject,verb,object\nperson,eat,food\n")
    result = scorer.score_file(source, tmp_path / "out.csv")
    # the n-gram's float64 score, through CSV by repr and read back within an ulp
    assert pd.read_csv(result.output)["score"].tolist() == pytest.approx(scorer.score([("person", "eat", "food")]))


def test_non_triples_are_rejected_with_their_position(fixtures: Path) -> None:
    scorer = plausibility.load_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")
    with pytest.raises(PlausibilityError, match=r"item 1 \(\('dog', 'bark'\)\) is not a triple"):
        scorer.score([("person", "eat", "food"), ("dog", "bark")])


def test_a_concept_max_loaded_through_the_api_is_measured_as_concept_max(fixtures) -> None:
    from plausibility.benchmarks.datasets import load_plausibility_set
    from plausibility.evaluation.grids import measure_consistency
    from plausibility.scorers.registry import build_scorer

    spec = f"conceptmax:ngram:{fixtures / 'ngram_triples.tsv'}"
    scorer = plausibility.load_scorer(spec)
    events = [event.triple for event in load_plausibility_set("pep3k", "test")[:20]]
    through_api = measure_consistency(scorer.scorer, events)
    direct = measure_consistency(build_scorer(spec), events)
    assert through_api.local_extremum_rate == direct.local_extremum_rate == 0.0
    assert through_api.lexicon == direct.lexicon == scorer.lexicon.describe()


def test_the_api_follows_the_one_word_rule_of_files_and_the_command_line(fixtures: Path) -> None:
    scorer = plausibility.load_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")
    with pytest.raises(PlausibilityError, match=r"item 0 .*: subject 'ice cream' is not a single word"):
        scorer.score([("ice cream", "melt", "sun")])
    with pytest.raises(PlausibilityError, match=r"item 0 .*: object is missing or empty"):
        scorer.score([("dog", "eat", " ")])


def test_every_door_gives_one_answer_per_triple_inflected_words_included(
    fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from plausibility.cli import main

    spec = f"ngram:{fixtures / 'ngram_triples.tsv'}"
    scorer = plausibility.load_scorer(spec)
    events = [("person", "eats", "apples"), ("children", "eat", "bread")]  # scored as their lemmas
    scores, probabilities = scorer.score(events), scorer.probability(events)
    assert scores.tolist() == scorer.score([("person", "eat", "apple"), ("child", "eat", "bread")]).tolist()
    source = tmp_path / "in.tsv"
    source.write_text("".join("\t".join(event) + "\n" for event in events))
    table = pd.read_csv(scorer.score_file(source, tmp_path / "api.tsv").output, sep="\t")
    assert main(["score", "--input", str(source), "--output", str(tmp_path / "cli.tsv"), "--model", spec]) == 0
    through_cli = pd.read_csv(tmp_path / "cli.tsv", sep="\t")
    for one, (words, score, probability) in enumerate(zip(events, scores, probabilities, strict=True)):
        capsys.readouterr()
        assert main(["score", *words, "--model", spec, "--json"]) == 0
        record = json.loads(capsys.readouterr().out)
        lemma = scorer.as_scored([words])[0]
        assert (record["subject_lemma"], record["verb_lemma"], record["object_lemma"]) == (
            lemma.subject,
            lemma.verb,
            lemma.object,
        )
        assert record["score"] == score == table["score"][one] == through_cli["score"][one]
        assert record["probability"] == probability == table["probability"][one] == through_cli["probability"][one]
    assert scorer.records(events)[0]["score"] == scores[0]


def test_every_api_name_is_the_function_whatever_was_imported_first() -> None:
    import importlib

    import plausibility

    for module in ("scorer", "workers", "evaluation", "minimal_pairs"):
        importlib.import_module(f"plausibility.api.{module}")  # a submodule named like a function would shadow it
    for name in ("consistency", "evaluate", "load_lm_scorer", "load_scorer", "pairs", "score_file"):
        assert callable(getattr(plausibility, name)) and not isinstance(getattr(plausibility, name), type(plausibility))

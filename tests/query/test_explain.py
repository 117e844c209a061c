"""Explanations are the arg-max of the event's own grid; coverage flags name what WordNet lacks."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from plausibility.cli import main
from plausibility.query.coverage import CoverageFlags
from plausibility.query.explain import explain, grid_source
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple


@pytest.fixture
def ngram(fixtures: Path):  # noqa: ANN201
    return build_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")


def test_explanation_is_the_argmax_of_the_grid(ngram) -> None:  # noqa: ANN001
    event = Triple("dentist", "eat", "apple")
    _, lexicon = grid_source(ngram)
    cells = lexicon.abstractor.grid(event).triples()
    probabilities = ngram.to_probability(ngram.score(cells))
    explanation = explain(ngram, [event], top=3)[0]
    assert explanation.best.triple == cells[int(np.argmax(probabilities))]
    # Both exact: the n-gram's elementwise float64 on the same cells, whatever the batch.
    assert explanation.best_probability == pytest.approx(probabilities.max())
    assert explanation.probability == pytest.approx(probabilities[cells.index(event)])
    assert [p for _, p in explanation.top] == sorted(probabilities, reverse=True)[:3]


def test_concept_max_score_matches_its_explanation(ngram) -> None:  # noqa: ANN001
    wrapped = ConceptMax(ngram, grid_source(ngram)[1])
    events = [Triple("dentist", "eat", "apple"), Triple("dog", "chase", "cat")]
    explained = explain(wrapped, events)
    # exact: exp of the grid's largest log score is the largest of their exps
    np.testing.assert_allclose(wrapped.to_probability(wrapped.score(events)), [e.best_probability for e in explained])


def test_words_absent_from_wordnet_are_flagged_not_dropped(ngram) -> None:  # noqa: ANN001
    event = Triple("zorblax", "eat", "apple")
    explanation = explain(ngram, [event])[0]
    assert not explanation.subject_in_wordnet and explanation.object_in_wordnet
    assert {t.subject.text for t, _ in explanation.top} == {"zorblax"}
    flags = CoverageFlags(grid_source(ngram)[1].hierarchy, training_nouns=["apple"])
    assert flags([event]) == {"flags": ["subject-not-in-wordnet,subject-unseen-in-training"]}


def test_plural_nouns_find_their_senses_through_their_lemma(ngram) -> None:  # noqa: ANN001
    flags = CoverageFlags(grid_source(ngram)[1].hierarchy)
    events = [Triple("children", "eat", "apples"), Triple("person", "eat", "apple")]
    assert flags(events) == {"flags": ["", ""]}
    explanation = explain(ngram, events[:1])[0]
    assert explanation.subject_in_wordnet and explanation.object_in_wordnet
    assert explanation.best.subject.synset is not None


def test_cli_explains_and_flags(tmp_path: Path, fixtures: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"conceptmax:ngram:{fixtures / 'ngram_triples.tsv'}"
    assert main(["score", "dentist", "eat", "apple", "--model", spec]) == 0
    assert "explained by:" in capsys.readouterr().out
    source = tmp_path / "in.tsv"
    source.write_text("subject\tverb\tobject\ndentist\teat\tapple\nzorblax\teat\tapple\n")
    output = tmp_path / "out.tsv"
    assert main(["score", "--input", str(source), "--output", str(output), "--model", spec]) == 0
    scored = pd.read_csv(output, sep="\t", keep_default_na=False)
    assert scored["flags"].tolist() == ["", "subject-not-in-wordnet"]
    assert scored["lemmatised"].tolist() == [False, False]
    assert scored["subject_lemma"].tolist() == ["dentist", "zorblax"]  # a word with no lemma is scored as given
    assert scored["abstraction"][1].startswith("zorblax eat ")


def test_only_concept_max_explains_itself_and_only_trained_scorers_flag_unseen_words(fixtures: Path) -> None:
    from plausibility.query.coverage import coverage_flags
    from plausibility.query.explain import explains_itself

    ngram = build_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")
    wrapped = build_scorer(f"conceptmax:ngram:{fixtures / 'ngram_triples.tsv'}")
    assert not explains_itself(ngram) and explains_itself(wrapped)
    assert coverage_flags(ngram).training_nouns is None and coverage_flags(wrapped).training_nouns is None
    assert coverage_flags(ngram).flags(Triple("dog", "eat", "qwzxy")) == ["object-not-in-wordnet"]


def test_min_depth_lays_the_grid_out_from_deeper_hypernyms_only(ngram) -> None:  # noqa: ANN001
    event = Triple("dentist", "eat", "apple")
    shallow = explain(ngram, [event], top=1000, min_depth=4)[0]
    deep = explain(ngram, [event], top=1000, min_depth=8)[0]
    deep_concepts = {concept for cell, _ in deep.top for concept in (cell.subject, cell.object)}
    assert all(concept.depth >= 8 or concept.text in ("dentist", "apple") for concept in deep_concepts)
    assert {cell for cell, _ in deep.top} < {cell for cell, _ in shallow.top}
    assert deep.probability == pytest.approx(shallow.probability)  # the event itself is scored the same (exactly)


def test_a_concept_max_at_another_min_depth_scores_what_its_explanation_says(ngram) -> None:  # noqa: ANN001
    from plausibility.query.explain import at_min_depth

    event = Triple("dentist", "eat", "apple")
    wrapped = ConceptMax(ngram, grid_source(ngram)[1])
    deep = at_min_depth(wrapped, 8)
    assert deep.lexicon.min_depth == 8 and at_min_depth(ngram, 8) is ngram and at_min_depth(wrapped, None) is wrapped
    best = explain(deep, [event])[0].best_probability
    # Both exact: exp of the largest log score of the same depth-8 grid, scored elementwise alike.
    assert deep.to_probability(deep.score([event]))[0] == pytest.approx(best)
    assert best == pytest.approx(explain(ngram, [event], min_depth=8)[0].best_probability)


def test_cli_min_depth_narrows_the_explanation(fixtures: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    spec = f"ngram:{fixtures / 'ngram_triples.tsv'}"
    listed = {}
    for depth in ("4", "8"):
        command = ["score", "dentist", "eat", "apple", "--model", spec, "--explain", "--top", "1000", "--json"]
        assert main([*command, "--min-depth", depth]) == 0
        listed[depth] = {entry["abstraction"] for entry in json.loads(capsys.readouterr().out)["explanation"]["top"]}
    assert "dentist eat apple" in listed["8"] and listed["8"] < listed["4"]
    with pytest.raises(SystemExit) as raised:
        main(["score", "dentist", "eat", "apple", "--model", spec, "--min-depth", "0"])
    assert raised.value.code == 2

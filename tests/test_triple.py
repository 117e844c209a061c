"""A word too long, or not a word, is refused the same way at every door, and no model ever reads it."""

import logging
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

import plausibility
from plausibility.api import Scorer
from plausibility.cli import main
from plausibility.serve.app import build_app
from plausibility.serve.served import ServedModel
from plausibility.triple import MAX_WORD_LENGTH, Triple, query_word_problem

FIXTURES = Path(__file__).parent / "fixtures"
NGRAM = f"ngram:{FIXTURES / 'ngram_triples.tsv'}"
HUGE = "x" * 1_000_000
# What every door says of HUGE as a subject, after the door's own prefix.
TOO_LONG = "subject 'xxxxxxxxxxxxxxxxxxxx...' is 1,000,000 characters long, more than the 50 a word may have"


@pytest.mark.parametrize(
    ("word", "problem"),
    [
        ("x" * MAX_WORD_LENGTH, None),
        ("x" * (MAX_WORD_LENGTH + 1), "is 51 characters long, more than the 50 a word may have"),
        ("pneumonoultramicroscopicsilicovolcanoconiosis", None),
        ("ice cream", "is not a single word"),
        ("...", "holds no letter, digit or symbol"),
        ("-", "holds no letter, digit or symbol"),
        ("$", None),  # 20Q's object of "horse cost $"
        ("42", None),
        ("café", None),
    ],
)
def test_a_word_is_short_single_and_holds_a_letter_digit_or_symbol(word: str, problem: str | None) -> None:
    assert query_word_problem(word) == problem


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return plausibility.load_scorer(NGRAM)


@pytest.fixture
def scored(scorer: Scorer, monkeypatch: pytest.MonkeyPatch) -> list[list[Triple]]:
    """Every batch the model is asked to score while the test runs."""
    batches: list[list[Triple]] = []
    model = scorer.scorer

    def counted(triples: list[Triple]) -> np.ndarray:
        batches.append(list(triples))
        return type(model).score(model, triples)

    monkeypatch.setattr(model, "score", counted, raising=False)
    return batches


def test_the_python_api_raises_a_value_error_naming_the_word_and_the_limit(
    scorer: Scorer, scored: list[list[Triple]]
) -> None:
    for verb in (scorer.score, scorer.probability, scorer.records):
        with pytest.raises(ValueError) as error:
            verb([("person", "eat", "apple"), (HUGE, "eat", "apple")])
        assert str(error.value) == f"item 1 (('{'x' * 75}...): {TOO_LONG}; give one word (a lemma) for each of S V O"
    with pytest.raises(ValueError, match=r"item 0 \(Triple\(.*\)\): object '\.\.\.' holds no letter"):
        scorer.probability([Triple("person", "eat", "...")])  # a Triple is held to the rule too
    assert scored == []


def test_the_command_line_refuses_it_in_one_line_before_any_model_loads(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", HUGE, "eat", "apple", "--model", "no-such-model"]) == 1
    assert capsys.readouterr().err == (
        f"plausibility score: error: {TOO_LONG}; give one word (a lemma) for each of S V O\n"
    )


def test_a_table_line_holding_it_stops_the_run_or_is_skipped_and_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    source = tmp_path / "in.tsv"
    # 100,000 characters: a field over csv's limit (131,072) stops the read whatever --skip-invalid says
    source.write_text(f"person\teat\tapple\n{HUGE[:100_000]}\teat\tapple\ndog\tchase\t-\n")
    too_long = TOO_LONG.replace("1,000,000", "100,000")
    output = tmp_path / "out.tsv"
    argv = ["score", "--model", NGRAM, "--input", str(source), "--output", str(output)]
    assert main(argv) == 1
    assert capsys.readouterr().err == (
        f"plausibility score: error: {source}: 2 lines are not triples: line 2: {too_long}; "
        "line 3: object '-' holds no letter, digit or symbol; fix them or pass --skip-invalid\n"
    )
    assert not output.exists()
    with caplog.at_level(logging.WARNING):
        assert main([*argv, "--skip-invalid"]) == 0
    assert " ".join(capsys.readouterr().out.split()) == f"scored 1 triples into {output} (2 lines skipped)"
    assert f"{source}:2: skipped: {too_long}" in caplog.messages
    assert output.read_text().splitlines()[1].startswith("person\teat\tapple\t")


def test_the_server_answers_422_naming_the_field(scorer: Scorer, scored: list[list[Triple]]) -> None:
    with TestClient(build_app([ServedModel(NGRAM, scorer, NGRAM, {}, None)])) as client:
        response = client.post("/v1/score", json={"triples": [["person", "eat", "apple"], ["dog", "chase", HUGE]]})
        explained = client.post("/v1/explain", json={"triples": [{"subject": "dog", "verb": "...", "object": "cat"}]})
    too_long = TOO_LONG.replace("subject", "object")
    assert (response.status_code, response.json()) == (
        422,
        {
            "error": f"triples[1]: {too_long}; give one word (a lemma) for each of subject, verb, object",
            "field": "triples[1]",
        },
    )
    assert explained.status_code == 422
    assert explained.json()["error"].startswith("triples[0]: verb '...' holds no letter, digit or symbol; ")
    assert scored == []

"""Errors cross process boundaries intact: one raised in a worker reaches the command line as its one line."""

import pickle

import pytest

from plausibility.errors import DataFormatError, PlausibilityError, UnknownNameError


@pytest.mark.parametrize(
    "error",
    [UnknownNameError("zero-shot variant", "nonsense", ["raw", "pmi"]), DataFormatError("x.tsv: line 3 is empty")],
)
def test_an_error_survives_pickling_as_itself(error: PlausibilityError) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error)


def test_an_unknown_name_spelled_nearly_like_a_known_one_suggests_it() -> None:
    known = ["conceptmax", "default", "ngram[:<triples>]", "roberta"]
    assert str(UnknownNameError("model", "defualt", known)) == (
        "unknown model 'defualt'; known: conceptmax, default, ngram[:<triples>], roberta; did you mean 'default'?"
    )
    # Nothing close: the known names alone; a word of three letters one off (`tpu`, `cpu`) is not close.
    assert str(UnknownNameError("model", "nonsense", known)).endswith("roberta")
    assert str(UnknownNameError("device", "tpu", ["cpu", "cuda"])) == "unknown device 'tpu'; known: cpu, cuda"


def test_the_command_line_suggests_the_model_meant(capsys: pytest.CaptureFixture[str]) -> None:
    from plausibility.cli import main

    assert main(["score", "person", "eat", "apple", "--model", "defualt"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("plausibility score: error: unknown model 'defualt'; known: ")
    assert line.endswith("; did you mean 'default'?")

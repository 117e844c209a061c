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

"""A kind of scorer is its module and one registration in `KINDS`: the SPEC grammar, the registry, the Python API
and the command line then know it (the worked example of docs/development.md)."""

from collections.abc import Sequence

import numpy as np
import pytest

import plausibility
from plausibility.cli import main
from plausibility.devices import LoadOptions
from plausibility.errors import UnknownNameError
from plausibility.scorers import kinds
from plausibility.scorers.kinds import KINDS, Kind
from plausibility.scorers.spec import ScorerSpec, parse_spec
from plausibility.triple import Triple


class WordLengthScorer:
    """A new baseline: an event whose words are shorter scores higher, by `weight` per character."""

    probability_mapping = "the logistic function of the score"
    lexicon = None

    def __init__(self, weight: float) -> None:
        self.weight = weight

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return np.array([-self.weight * len(str(t).replace(" ", "")) for t in triples], dtype=np.float64)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-scores))


def _word_length(spec: ScorerSpec, options: LoadOptions) -> WordLengthScorer:
    return WordLengthScorer(float(spec.source or 1))


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(KINDS, "word-length", Kind("word-length", "word-length[:<weight>]", _word_length))


def test_one_registration_makes_a_kind_known_to_the_grammar_the_api_and_the_command_line(
    registered: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert parse_spec("word-length:0.5") == ScorerSpec("word-length", "0.5")
    scorer = plausibility.load_scorer("uncalibrated:word-length:0.5")
    events = [("cat", "eat", "fish"), ("person", "eat", "apples")]
    assert scorer.score(events).tolist() == [-5.0, -7.0]  # "apples" is scored as its lemma, as for any kind
    assert main(["score", "cat", "eat", "fish", "--model", "uncalibrated:word-length", "--json"]) == 0
    assert '"score": -10.0' in capsys.readouterr().out
    with pytest.raises(UnknownNameError, match=r"word-length\[:<weight>\]"):  # listed among the known forms
        parse_spec("word-lenght")


def test_every_shipped_kind_is_registered_once() -> None:
    assert list(KINDS) == ["ngram", "resnik", "zero-shot", "glove-mlp"]
    assert all(name == kind.name and kind.form.startswith(name) for name, kind in KINDS.items())
    assert kinds.LM_BATCH_SIZE == 32

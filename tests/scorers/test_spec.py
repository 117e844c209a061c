"""SPEC strings parse once into a `ScorerSpec`; unknown forms fail in one line that lists the known ones."""

from pathlib import Path

import pytest

from plausibility.errors import PlausibilityError, ResourceMissingError, UnknownNameError
from plausibility.scorers.spec import ScorerSpec, parse_spec


def test_each_form_parses_to_its_kind(tmp_path: Path) -> None:
    folder = tmp_path / "exported"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"")
    assert parse_spec("ngram") == ScorerSpec("ngram")
    assert parse_spec("ngram:") == ScorerSpec("ngram")
    assert parse_spec(" ngram:triples.tsv ") == ScorerSpec("ngram", "triples.tsv")
    assert parse_spec("resnik:t.parquet") == ScorerSpec("resnik", "t.parquet")
    assert parse_spec("zero-shot") == ScorerSpec("zero-shot")
    assert parse_spec("zero-shot:gpt2") == ScorerSpec("zero-shot", "gpt2")
    assert parse_spec("zero-shot:gpt2@raw") == ScorerSpec("zero-shot", "gpt2", "raw")
    assert parse_spec("zero-shot:@raw") == ScorerSpec("zero-shot", None, "raw")
    assert parse_spec("zero-shot:bert@pmi?pll=original") == ScorerSpec("zero-shot", "bert", "pmi", "original")
    assert parse_spec("zero-shot:?pll=original") == ScorerSpec("zero-shot", pll="original")
    assert parse_spec("glove-mlp:runs/g/last.ckpt") == ScorerSpec("glove-mlp", "runs/g/last.ckpt")
    assert parse_spec("runs/r/last.ckpt") == ScorerSpec("checkpoint", "runs/r/last.ckpt")
    assert parse_spec(str(folder)) == ScorerSpec("folder", str(folder))
    assert parse_spec(str(tmp_path)) == ScorerSpec("folder", str(tmp_path))  # a folder of no other form
    assert parse_spec("roberta") == ScorerSpec("shipped", "roberta")
    assert parse_spec("conceptmax") == ScorerSpec("shipped", "conceptmax")
    assert parse_spec("conceptmax:ngram") == ScorerSpec("conceptmax", inner=ScorerSpec("ngram"))
    assert parse_spec("uncalibrated:conceptmax:r.ckpt") == ScorerSpec(
        "uncalibrated", inner=ScorerSpec("conceptmax", inner=ScorerSpec("checkpoint", "r.ckpt"))
    )
    assert parse_spec("conceptmax:roberta") == ScorerSpec("conceptmax", inner=ScorerSpec("shipped", "roberta"))
    assert parse_spec("event:conceptmax") == ScorerSpec("event", inner=ScorerSpec("shipped", "conceptmax"))


@pytest.mark.parametrize(
    "text",
    [
        "ngram",
        "ngram:a.tsv",
        "zero-shot",
        "zero-shot:gpt2@raw",
        "zero-shot:@pmi",
        "glove-mlp:g.ckpt",
        "x/last.ckpt",
        "zero-shot:@pmi-passive",
        "zero-shot:bert?pll=original",
        "zero-shot:@raw?pll=word-l2r",
        "roberta",
        "conceptmax",
        "conceptmax:uncalibrated:zero-shot:gpt2@masked",
        "ensemble:roberta+zero-shot",
        "ensemble:conceptmax:ngram+zero-shot:gpt2@raw+conceptmax",
        "ensemble:roberta+4*zero-shot+0.5*ngram",
        "event:conceptmax",
        "ensemble:event:conceptmax+2*ngram",
    ],
)
def test_a_spec_prints_as_the_string_it_parses_from(text: str) -> None:
    assert str(parse_spec(text)) == text
    assert parse_spec(str(parse_spec(text))) == parse_spec(text)


def test_unknown_and_incomplete_forms_fail_in_one_line() -> None:
    known = (
        "<exported folder>, <path>.ckpt, conceptmax, conceptmax:<SPEC>, default, ensemble:[<W>*]<SPEC>+[<W>*]<SPEC>, "
        "event:<SPEC>, fast, glove-mlp:<path>.ckpt, ngram[:<triples>], resnik[:<triples>], roberta, "
        "uncalibrated:<SPEC>, zero-shot[:<lm>][@<variant>][?pll=<metric>]"
    )
    cases = {
        "nonsense": (UnknownNameError, f"unknown model 'nonsense'; known: {known}"),
        "ngrams:x": (UnknownNameError, f"unknown model 'ngrams:x'; known: {known}"),
        "zero-shot:gpt2@best": (
            UnknownNameError,
            "unknown zero-shot variant 'best'; known: masked, pmi, pmi-passive, raw",
        ),
        "zero-shot:bert?pll=within_word": (
            UnknownNameError,
            "unknown PLL metric 'within_word'; known: original, word-l2r",
        ),
        "zero-shot:bert?metric=original": (
            PlausibilityError,
            "zero-shot option 'metric=original' is not known; the one option is ?pll=<metric>",
        ),
        "uncalibrated": (PlausibilityError, "uncalibrated needs the scorer to wrap, e.g. uncalibrated:zero-shot"),
        "uncalibrated:": (PlausibilityError, "uncalibrated needs the scorer to wrap, e.g. uncalibrated:zero-shot"),
        "conceptmax: ": (PlausibilityError, "conceptmax needs the scorer to wrap, e.g. conceptmax:zero-shot"),
        "event": (PlausibilityError, "event needs the ConceptMax model to read at its event, e.g. event:conceptmax"),
        "conceptmax:nonsense": (UnknownNameError, f"unknown model 'nonsense'; known: {known}"),
        "glove-mlp": (
            ResourceMissingError,
            "glove-mlp needs a trained checkpoint: plausibility fit --config configs/models/glove_mlp.yaml, "
            "then use glove-mlp:<path>.ckpt",
        ),
        "  ": (PlausibilityError, "empty model SPEC; give one, e.g. zero-shot or ngram"),
    }
    for text, (kind, message) in cases.items():
        with pytest.raises(kind) as raised:
            parse_spec(text)
        assert str(raised.value) == message, text

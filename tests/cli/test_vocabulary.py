"""One word per meaning on the command line: `--model` names what scores in every command, `--benchmarks` and
`--splits` the benchmarks, `--batch-size` a forward pass and `--chunk-size` the rows per chunk; old names still
work and say the new one."""

import logging

import pytest

from plausibility.cli import build_parser

SCORING = {
    "score": ["score", "person", "eat", "apple"],
    "evaluate": ["evaluate", "--output", "out"],
    "consistency": ["consistency", "--output", "out"],
    "pairs": ["pairs", "lieder", "--output", "out"],
    "report": ["report", "--output", "out"],
    "serve": ["serve"],
}


@pytest.mark.parametrize("command", sorted(SCORING))
def test_every_scoring_command_names_its_model_with_model_and_its_forward_pass_with_batch_size(command: str) -> None:
    args = build_parser().parse_args([*SCORING[command], "--model", "ngram", "--batch-size", "8"])
    assert args.batch_size == 8
    assert (args.models if command == "pairs" else args.model) in ("ngram", ["ngram"])


@pytest.mark.parametrize(
    ("old", "new", "dest", "expected"),
    [
        (["pairs", "lieder", "--lm", "gpt2", "--lm", "opt", "--output", "out"], "--model", "models", ["gpt2", "opt"]),
        (["consistency", "--model", "ngram", "--dataset", "20q", "--output", "o"], "--benchmarks", "benchmarks", "20q"),
        (["consistency", "--model", "ngram", "--split", "valid", "--output", "out"], "--splits", "splits", "valid"),
        (["extract", "corpus", "--output", "out", "--model", "en_core_web_sm"], "--parser-model", "parser_model",
         "en_core_web_sm"),
    ],
)  # fmt: skip
def test_an_old_name_still_works_and_warns_with_the_new_one(
    caplog: pytest.LogCaptureFixture, old: list[str], new: str, dest: str, expected: object
) -> None:
    with caplog.at_level(logging.WARNING, logger="plausibility"):  # whatever level an earlier command left
        args = build_parser().parse_args(old)
    assert getattr(args, dest) == expected
    assert f"is an old name of {new}; say {new}" in caplog.text


def test_benchmarks_and_splits_name_what_evaluate_and_consistency_measure() -> None:
    evaluate = build_parser().parse_args(["evaluate", "--model", "ngram", "--benchmarks", "pap", "--splits", "test",
                                          "--output", "out"])  # fmt: skip
    consistency = build_parser().parse_args(["consistency", "--model", "ngram", "--benchmarks", "20q", "--splits",
                                             "valid", "--output", "out"])  # fmt: skip
    assert (evaluate.benchmarks, evaluate.splits) == (["pap"], ["test"])
    assert (consistency.benchmarks, consistency.splits) == ("20q", "valid")

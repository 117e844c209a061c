"""--device, --dtype and --batch-size on every command that scores, with a tiny causal LM on the CPU."""

import csv
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

from plausibility.cli import main

END = "<|endoftext|>"
WORDS = "the The a an dog cat person bone air helium dentist eat eats breathe breathes chase . , is was not".split()
LIEDER = Path(__file__).parents[1] / "fixtures" / "minimal_pairs" / "lieder_two_items.jsonl"
COMMANDS = {
    "score": ["score", "person", "breathe", "air"],
    "evaluate": ["evaluate", "--model", "ngram", "--output", "OUT"],
    "consistency": ["consistency", "--model", "ngram", "--benchmarks", "pep3k", "--splits", "test", "--output", "OUT"],
    "report": ["report", "--output", "OUT"],
    "pairs": ["pairs", "lieder", "--output", "OUT"],
    "demo": ["demo", "--output", "OUT"],
    "serve": ["serve", "--port", "0"],
}


@pytest.fixture(scope="module")
def lm(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A tiny random GPT-2 with a word-level tokenizer, saved as a folder `--lm` and `zero-shot:` can name."""
    folder = tmp_path_factory.mktemp("tiny-gpt2")
    backend = Tokenizer(models.WordLevel({w: i for i, w in enumerate([END, *WORDS])}, unk_token=END))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, bos_token=END, eos_token=END)
    torch.manual_seed(0)
    config = GPT2Config(vocab_size=len(tokenizer), n_embd=32, n_layer=2, n_head=4, n_positions=256)
    GPT2LMHeadModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def _pairs(lm: str, output: Path, *options: str) -> dict[str, float]:
    dump = output / "scores.csv"
    argv = ["-q", "pairs", "lieder", "--data", str(LIEDER), "--model", lm, "--output", str(output)]
    assert main([*argv, "--dump-scores", str(dump), *options]) == 0
    with dump.open() as handle:
        return {row["id"]: float(row["logprob"]) for row in csv.DictReader(handle)}


def test_pairs_scores_in_bfloat16_within_a_tolerance_and_records_it(lm: str, tmp_path: Path) -> None:
    full = _pairs(lm, tmp_path / "fp32", "--device", "cpu")
    half = _pairs(lm, tmp_path / "bf16", "--device", "cpu", "--dtype", "bfloat16")
    low, high = (np.array([scores[key] for key in sorted(full)]) for scores in (half, full))
    assert not np.array_equal(low, high)  # computed in bfloat16 indeed
    np.testing.assert_allclose(low, high, rtol=0, atol=0.1)  # bfloat16 (2^-8): sums of ~7 tokens move ~5e-3
    summary = json.loads((tmp_path / "bf16" / "summary.json").read_text())
    assert (summary["dtype"], summary["batch_size"]) == ("bfloat16", 32)


def test_pairs_batch_size_does_not_change_scores(lm: str, tmp_path: Path) -> None:
    one = _pairs(lm, tmp_path / "one", "--batch-size", "1")
    many = _pairs(lm, tmp_path / "many", "--batch-size", "7")
    assert one.keys() == many.keys()
    # batches of 1 vs 7: float32 sums of ~7 token values (~3 nats, ulp 2.4e-7), ~1e-6 at most
    np.testing.assert_allclose([one[k] for k in one], [many[k] for k in one], rtol=0, atol=1e-4)
    assert json.loads((tmp_path / "one" / "summary.json").read_text())["batch_size"] == 1


def _json_score(lm: str, capsys: pytest.CaptureFixture[str], *options: str) -> float:
    assert main(["score", "person", "breathe", "air", "--model", f"zero-shot:{lm}", "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)["score"]


def test_score_takes_the_dtype_and_batch_size(lm: str, capsys: pytest.CaptureFixture[str]) -> None:
    full = _json_score(lm, capsys, "--device", "cpu")
    # three float32 sums of <= 6 token values (~3 nats) each, batches of 1 vs 32: ~1e-6 at most
    assert _json_score(lm, capsys, "--batch-size", "1") == pytest.approx(full, abs=1e-4)
    half = _json_score(lm, capsys, "--dtype", "bfloat16")
    assert half != full and half == pytest.approx(full, abs=0.1)  # bfloat16 (2^-8) moves the PMI by ~1e-3


def test_evaluate_and_consistency_record_the_dtype(lm: str, tmp_path: Path) -> None:
    model = ["--model", f"zero-shot:{lm}", "--dtype", "bfloat16", "--batch-size", "64", "-q"]
    assert (
        main(["evaluate", *model, "--benchmarks", "pep3k", "--splits", "valid", "--output", str(tmp_path / "e")]) == 0
    )
    assert json.loads((tmp_path / "e" / "metrics.json").read_text())["model"]["dtype"] == "bfloat16"
    consistency = [
        "consistency",
        *model,
        "--benchmarks",
        "pep3k",
        "--splits",
        "test",
        "--limit",
        "2",
        "--heatmaps",
        "0",
    ]
    assert main([*consistency, "--output", str(tmp_path / "c")]) == 0
    assert json.loads((tmp_path / "c" / "consistency.json").read_text())["dtype"] == "bfloat16"


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a CUDA GPU")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_device_this_machine_lacks_is_one_line_before_anything_is_written(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [str(tmp_path / "out") if word == "OUT" else word for word in COMMANDS[command]]
    assert main([*argv, "--device", "cuda:1"]) == 1
    assert capsys.readouterr().err == (
        f"plausibility {command}: error: device 'cuda:1': no CUDA GPU is visible on this machine; choose cpu or auto\n"
    )
    assert not (tmp_path / "out").exists()


def test_an_unknown_device_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["score", "person", "breathe", "air", "--device", "gpu0"])
    assert raised.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "plausibility score: error: argument --device: unknown device 'gpu0'; known: auto, cpu, cuda, cuda:N, mps"
    )

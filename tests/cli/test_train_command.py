"""`plausibility fit`: what Lightning would find late, or report in pages, is one line before anything is built."""

from pathlib import Path

import pytest
import torch

from plausibility.cli import main
from plausibility.resources import hub

CONFIG = Path(__file__).parents[2] / "configs" / "models" / "glove_mlp.yaml"


def _fit(fixtures: Path, *extra: str) -> int:
    pairs = fixtures / "training" / "pairs.parquet"
    return main(["fit", f"--config={CONFIG}", f"--data.pairs={pairs}",
                 "--trainer.fast_dev_run=true", "--trainer.enable_progress_bar=false", *extra])  # fmt: skip


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_a_mistyped_config_key_is_one_line_before_any_usage(
    fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _fit(fixtures, "--model.net.init_args.hiden_size=3") == 1
    assert _error(capsys) == (
        'plausibility fit: error: Parser key "model.net": Problem with given class_path '
        "'plausibility.baselines.glove_mlp.GloveMlpNet': Option 'hiden_size' is not accepted "
        "(the options: plausibility fit --help)"
    )


def test_an_abbreviated_option_is_not_taken_for_the_full_one(
    fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _fit(fixtures, "--trainer.max_epoch=1") == 1
    assert _error(capsys) == (
        "plausibility fit: error: unrecognized arguments: --trainer.max_epoch=1 (the options: plausibility fit --help)"
    )
    assert not (tmp_path / "runs").exists()


def test_pairs_that_are_not_parquet_are_one_line(
    fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pairs.parquet").write_text("a,b\n")
    assert _fit(fixtures, f"--data.pairs={tmp_path / 'pairs.parquet'}") == 1
    assert _error(capsys) == (
        f"plausibility fit: error: {tmp_path / 'pairs.parquet'}: not a Parquet file; give --data.pairs the "
        "pairs.parquet that `plausibility negatives FOLDER` writes"
    )


def test_a_missing_checkpoint_is_one_line_before_the_model_is_built(
    fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _fit(fixtures, "--ckpt_path=missing.ckpt") == 1
    assert _error(capsys) == (
        "plausibility fit: error: --ckpt_path missing.ckpt: no such checkpoint; give the .ckpt of an earlier run "
        "(e.g. runs/<model>/checkpoints/last.ckpt), or last or best"
    )
    assert not (tmp_path / "runs").exists()


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a CUDA GPU")
def test_a_gpu_accelerator_without_a_gpu_is_one_line(
    fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _fit(fixtures, "--trainer.accelerator=gpu") == 1
    assert _error(capsys) == (
        "plausibility fit: error: --trainer.accelerator gpu: no CUDA GPU is visible on this machine; use "
        "--trainer.accelerator=cpu (or auto)"
    )


def test_a_backbone_not_available_offline_is_one_line(
    fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from huggingface_hub import constants

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setattr(constants, "ENDPOINT", "http://127.0.0.1:9")  # nothing listens there: unreachable
    hub.hub_reachable.cache_clear()
    roberta = Path(__file__).parents[2] / "configs" / "models" / "roberta.yaml"
    pairs = fixtures / "training" / "pairs.parquet"
    code = main(["fit", f"--config={roberta}", f"--data.pairs={pairs}", "--trainer.fast_dev_run=true",
                 "--model.net.init_args.backbone=roberta-base"])  # fmt: skip
    hub.hub_reachable.cache_clear()
    assert code == 1
    assert _error(capsys).startswith(
        "plausibility fit: error: model 'roberta-base' is neither a local folder nor in the Hugging Face cache"
    )


def test_fit_help_is_a_short_form_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fit", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: plausibility fit --config CONFIG")
    assert "plausibility fit --config configs/models/concept_max.yaml" in out
    assert "plausibility fit --help-all" in out and len(out.splitlines()) < 30

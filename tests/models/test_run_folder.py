"""`--trainer.default_root_dir` places every file of a run; a new run never mixes with an earlier one."""

from pathlib import Path

import pytest
import torch

from plausibility.cli import main
from plausibility.errors import ResourceMissingError
from plausibility.models.training import resolve_config
from plausibility.resources.paths import configs_dir, shipped_model_configs


def _fit(backbone: str, fixtures: Path, *extra: str) -> int:
    return main([
        "fit", "--config", "roberta", f"--model.net.init_args.backbone={backbone}",
        f"--data.pairs={fixtures / 'training' / 'pairs.parquet'}", "--data.eval_batch_size=128",
        "--trainer.val_check_interval=2", "--trainer.limit_val_batches=1", "--trainer.enable_progress_bar=false",
        "--trainer.default_root_dir", "runs/mine", *extra,
    ])  # fmt: skip


@pytest.fixture()
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh working folder the run folder `runs/mine` is made in."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _files(root: Path) -> list[str]:
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())


def test_default_root_dir_holds_every_file_of_the_run_and_its_resolved_config(
    roberta_backbone: str, fixtures: Path, workdir: Path
) -> None:
    assert _fit(roberta_backbone, fixtures, "--trainer.max_steps=2") == 0
    files = _files(workdir)
    events = [name for name in files if name.startswith("runs/mine/tensorboard/version_0/events.out.tfevents.")]
    assert len(events) == 1
    assert files == sorted([
        "runs/mine/checkpoints/epoch=0-step=2.ckpt", "runs/mine/checkpoints/last.ckpt",
        "runs/mine/logs/version_0/config.yaml", "runs/mine/logs/version_0/hparams.yaml",
        "runs/mine/logs/version_0/metrics.csv", "runs/mine/tensorboard/version_0/hparams.yaml", *events,
    ])  # fmt: skip
    config = (workdir / "runs/mine/logs/version_0/config.yaml").read_text()
    assert "default_root_dir: runs/mine\n" in config and "dirpath: runs/mine/checkpoints\n" in config


def test_a_second_run_into_the_folder_is_refused_and_resuming_it_continues(
    roberta_backbone: str, fixtures: Path, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _fit(roberta_backbone, fixtures, "--trainer.max_steps=2") == 0
    before = _files(workdir)
    capsys.readouterr()
    assert _fit(roberta_backbone, fixtures, "--trainer.max_steps=2") == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "plausibility fit: error: --trainer.default_root_dir runs/mine: holds an earlier run "
        "(runs/mine/checkpoints/last.ckpt); give a new folder, or resume that run with --ckpt_path "
        "runs/mine/checkpoints/last.ckpt"
    )
    assert _files(workdir) == before
    last = "runs/mine/checkpoints/last.ckpt"
    assert _fit(roberta_backbone, fixtures, "--trainer.max_steps=4", f"--ckpt_path={last}") == 0
    assert torch.load(workdir / last, map_location="cpu", weights_only=False)["global_step"] == 4
    assert (workdir / "runs/mine/logs/version_1/config.yaml").is_file()  # the resumed part logs beside, versioned


def test_a_shipped_config_is_found_by_name() -> None:
    assert resolve_config("concept_max") == str(configs_dir() / "models" / "concept_max.yaml")
    assert resolve_config("roberta-paper.yaml") == str(configs_dir() / "models" / "roberta-paper.yaml")
    assert "glove_mlp" in shipped_model_configs()


def test_an_unknown_config_name_lists_the_shipped_ones() -> None:
    with pytest.raises(ResourceMissingError) as caught:
        resolve_config("concept-max")
    assert str(caught.value) == (
        "--config concept-max: no such file or shipped config; give a YAML file or one of concept_inject, "
        "concept_inject-paper, concept_max, concept_max-paper, glove_mlp, glove_mlp-paper, roberta, roberta-paper, "
        "roberta-smollm2"
    )


def test_a_quiet_fit_prints_nothing(
    roberta_backbone: str, fixtures: Path, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _fit(roberta_backbone, fixtures, "--trainer.max_steps=2", "-q") == 0
    assert capsys.readouterr() == ("", "")
    assert (workdir / "runs/mine/checkpoints/last.ckpt").is_file()

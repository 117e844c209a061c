"""Training through `plausibility fit` on the real configs, with only the backbone and data overridden."""

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import yaml

from plausibility.cli import main
from plausibility.models.checkpoint import load_checkpoint_scorer
from plausibility.models.datamodule import PairsDataModule
from plausibility.models.system import PlausibilityModule
from plausibility.models.training import TrainingCLI
from plausibility.triple import Triple

CONFIGS = Path(__file__).parents[2] / "configs" / "models"
EVENTS = [Triple("dog", "eat", "bone"), Triple("dentist", "breathe", "helium"), Triple("stone", "read", "milk")]


def _arguments(config: str, backbone: str, fixtures: Path, *extra: str) -> list[str]:
    return [
        f"--config={CONFIGS / config}",
        f"--model.net.init_args.backbone={backbone}",
        f"--data.pairs={fixtures / 'training' / 'pairs.parquet'}",
        "--data.eval_batch_size=128",
        "--trainer.enable_progress_bar=false",
        *extra,
    ]


@pytest.mark.parametrize("config", ["roberta.yaml", "concept_inject.yaml", "concept_max.yaml"])
def test_every_config_runs_a_fast_dev_run_on_bert(
    config: str, bert_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The checkpoint tests below train every config on the RoBERTa family.
    monkeypatch.chdir(tmp_path)
    assert main(["fit", *_arguments(config, bert_backbone, fixtures, "--trainer.fast_dev_run=true")]) == 0


@pytest.mark.parametrize("config", ["roberta.yaml", "concept_inject.yaml", "concept_max.yaml"])
def test_checkpoint_round_trip_gives_identical_scores(
    config: str, roberta_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    steps = ["--trainer.max_steps=2", "--trainer.val_check_interval=2", "--trainer.limit_val_batches=1"]
    cli = TrainingCLI(
        PlausibilityModule, PairsDataModule, args=["fit", *_arguments(config, roberta_backbone, fixtures, *steps)]
    )
    checkpoint = next(tmp_path.glob("runs/*/checkpoints/last.ckpt"))
    trained = cli.model.scorer()
    loaded = load_checkpoint_scorer(str(checkpoint))
    assert type(loaded) is type(trained)
    assert loaded.score(EVENTS).tolist() == pytest.approx(trained.score(EVENTS).tolist(), abs=1e-6)
    assert (tmp_path / "runs").is_dir() and any(tmp_path.glob("runs/*/logs/version_0/metrics.csv"))
    logged = {name: float(value) for name, value in cli.trainer.callback_metrics.items()}
    assert logged["val/auc"] == pytest.approx((logged["val/auc_pep3k"] + logged["val/auc_20q"]) / 2)


def test_last_checkpoint_holds_the_final_step_when_an_earlier_one_was_best(
    roberta_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = yaml.safe_load((CONFIGS / "roberta.yaml").read_text())
    (callback,) = [c for c in config["trainer"]["callbacks"] if c["class_path"].endswith("ModelCheckpoint")]
    callback["init_args"].update(monitor="step", mode="min")  # the first validation is always the best
    path = tmp_path / "roberta.yaml"
    path.write_text(yaml.safe_dump(config))
    steps = ["--trainer.max_steps=5", "--trainer.val_check_interval=2", "--trainer.limit_val_batches=1"]
    steps += ["--trainer.max_epochs=100", "--data.batch_size=4"]
    assert main(["fit", *_arguments(str(path), roberta_backbone, fixtures, *steps)]) == 0
    folder = tmp_path / "runs" / "roberta" / "checkpoints"
    assert sorted(p.name for p in folder.iterdir()) == ["epoch=0-step=2.ckpt", "last.ckpt"]
    assert torch.load(folder / "last.ckpt", map_location="cpu", weights_only=False)["global_step"] == 5


def test_resuming_from_last_checkpoint_continues_the_schedule(
    roberta_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    common = ["--trainer.val_check_interval=2", "--trainer.limit_val_batches=1", "--trainer.max_epochs=3"]
    arguments = _arguments("roberta.yaml", roberta_backbone, fixtures, *common)
    TrainingCLI(PlausibilityModule, PairsDataModule, args=["fit", *arguments, "--trainer.max_steps=2"])
    last = tmp_path / "runs" / "roberta" / "checkpoints" / "last.ckpt"
    resumed = TrainingCLI(
        PlausibilityModule, PairsDataModule, args=["fit", *arguments, "--trainer.max_steps=4", f"--ckpt_path={last}"]
    )
    assert resumed.trainer.global_step == 4
    scheduler = resumed.trainer.lr_scheduler_configs[0].scheduler
    assert scheduler.last_epoch == 4
    # LinearLR warm-up from the config: lr 1e-4, start factor 0.01, 100 steps; four steps taken in all.
    assert scheduler.get_last_lr()[0] == pytest.approx(1e-4 * (0.01 + 0.99 * 4 / 100))


@pytest.mark.slow
def test_ddp_on_two_cpu_processes(roberta_backbone: str, fixtures: Path, tmp_path: Path) -> None:
    # `ddp` relaunches the command line in each process, so it runs as the real console command.
    steps = ["--trainer.max_steps=3", "--trainer.val_check_interval=3"]
    steps += ["--data.batch_size=8", "--trainer.log_every_n_steps=1"]
    ddp = ["--trainer.strategy=ddp", "--trainer.devices=2", "--trainer.accelerator=cpu"]
    command = [sys.executable, "-m", "plausibility", "fit", *_arguments("roberta.yaml", roberta_backbone, fixtures)]
    environment = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONWARNINGS": "ignore"}
    done = subprocess.run(
        [*command, *steps, *ddp], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr[-3000:]
    with (tmp_path / "runs" / "roberta" / "logs" / "version_0" / "metrics.csv").open() as file:
        rows = list(csv.DictReader(file))
    assert any(row.get("val/auc_pep3k") for row in rows) and any(row.get("val/auc_20q") for row in rows)
    assert (tmp_path / "runs" / "roberta" / "checkpoints" / "last.ckpt").is_file()


@pytest.mark.parametrize("model", ["roberta", "concept_inject", "concept_max"])
def test_paper_configs_hold_the_thesis_hyperparameters(
    model: str, roberta_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    cpu = ["--trainer.accelerator=cpu", "--trainer.precision=32-true", "--trainer.logger=false", "--data.num_workers=0"]
    arguments = _arguments(f"{model}-paper.yaml", roberta_backbone, fixtures, *cpu)
    cli = TrainingCLI(PlausibilityModule, PairsDataModule, run=False, args=arguments)
    assert cli.config["model"]["net"]["init_args"]["backbone"] == roberta_backbone
    optimizer = cli.model.configure_optimizers()
    assert optimizer["optimizer"].defaults["lr"] == 2e-5 and isinstance(optimizer["optimizer"], torch.optim.Adam)
    assert optimizer["lr_scheduler"]["scheduler"].total_iters == 10_000
    assert cli.datamodule.batch_size == 128 and cli.trainer.max_epochs == 2
    assert (CONFIGS / f"{model}-paper.yaml").read_text().count("backbone: roberta-base") == 1

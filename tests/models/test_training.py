"""Training through `plausibility fit` on the real configs, with only the backbone and data overridden."""

import csv
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch
import yaml
from lightning.pytorch import Callback, LightningModule, Trainer

from plausibility.cli import main
from plausibility.errors import IncompatibleCheckpointError
from plausibility.models.datamodule import PairsDataModule
from plausibility.models.system import PlausibilityModule
from plausibility.models.training import TrainingCLI
from plausibility.scorers.net import trained_scorer
from plausibility.scorers.trained import load_trained
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


def test_the_smollm2_config_reads_a_decoder_at_its_last_token(
    decoder_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    arguments = _arguments("roberta-smollm2.yaml", decoder_backbone, fixtures, "--trainer.fast_dev_run=true")
    cli = TrainingCLI(PlausibilityModule, PairsDataModule, args=["fit", *arguments])
    assert cli.model.net.pooling == "last" and cli.trainer.state.finished
    assert (CONFIGS / "roberta-smollm2.yaml").read_text().count("backbone: SmolLM2-135M-Instruct") == 1


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
    trained = trained_scorer(cli.model.net, cli.model.lexicon, cli.model.abstractions, cli.model.eval_batch_size)
    loaded = load_trained(str(checkpoint))
    assert type(loaded) is type(trained)
    # the saved weights, the same batches: equal (1e-6 is a few ulps of a logit near 1)
    assert loaded.score(EVENTS).tolist() == pytest.approx(trained.score(EVENTS).tolist(), abs=1e-6)
    assert (tmp_path / "runs").is_dir() and any(tmp_path.glob("runs/*/logs/version_0/metrics.csv"))
    logged = {name: float(value) for name, value in cli.trainer.callback_metrics.items()}
    # Lightning keeps logged values as float32 tensors: each rounded to ~6e-8 relative
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
    assert scheduler.get_last_lr()[0] == pytest.approx(1e-4 * (0.01 + 0.99 * 4 / 100))  # float64, stepwise: ulps


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


class _CopyCheckpointAt(Callback):
    """Copies `last.ckpt` as it stands when step `step` begins: what a run stopped there would have left."""

    def __init__(self, step: int, last: Path, copy: Path) -> None:
        self.step, self.last, self.copy = step, last, copy

    def on_train_batch_start(self, trainer: Trainer, pl_module: LightningModule, batch: object, batch_idx: int) -> None:
        if trainer.global_step == self.step:
            shutil.copy(self.last, self.copy)


class _RecordRates(Callback):
    """The learning rate each optimizer step uses, read from the optimizer."""

    def __init__(self) -> None:
        self.rates: list[float] = []

    def on_train_batch_start(self, trainer: Trainer, pl_module: LightningModule, batch: object, batch_idx: int) -> None:
        self.rates.append(trainer.optimizers[0].param_groups[0]["lr"])


def _config_with(tmp_path: Path, config: str, **checkpoint_args: object) -> str:
    """`config` with the checkpoint callback's init args updated, written into `tmp_path`."""
    loaded = yaml.safe_load((CONFIGS / config).read_text())
    (callback,) = [c for c in loaded["trainer"]["callbacks"] if c["class_path"].endswith("ModelCheckpoint")]
    callback["init_args"].update(checkpoint_args)
    path = tmp_path / config
    path.write_text(yaml.safe_dump(loaded))
    return str(path)


def test_resuming_a_stopped_run_reproduces_the_unbroken_run_exactly(
    roberta_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ConceptMax draws abstractions (numpy) and dropout (torch); 160 pairs in batches of 32 are 5 steps an
    # epoch, so the resumed half crosses into a second epoch; linear decay ties the rate to the step.
    monkeypatch.chdir(tmp_path)
    config = _config_with(tmp_path, "concept_max.yaml", last_every_n_steps=4)
    steps = ["--trainer.max_steps=8", "--trainer.max_epochs=100", "--trainer.val_check_interval=3"]
    steps += ["--trainer.limit_val_batches=1", "--model.scheduler.init_args.warmup_steps=2"]
    steps += ["--model.scheduler.init_args.decay=linear"]
    arguments = ["fit", *_arguments(config, roberta_backbone, fixtures, *steps)]
    folder = tmp_path / "runs" / "concept_max" / "checkpoints"
    copy = _CopyCheckpointAt(5, folder / "last.ckpt", tmp_path / "stopped.ckpt")
    unbroken = TrainingCLI(PlausibilityModule, PairsDataModule, args=arguments, trainer_defaults={"callbacks": [copy]})
    stopped = torch.load(tmp_path / "stopped.ckpt", map_location="cpu", weights_only=True)
    assert stopped["global_step"] == 4 and stopped["loops"]["fit_loop"]["state_dict"]["combined_loader"] == [
        {"epoch": 0, "position": 128}
    ]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resumed = TrainingCLI(
            PlausibilityModule, PairsDataModule, args=[*arguments, f"--ckpt_path={tmp_path / 'stopped.ckpt'}"]
        )
    assert not [w for w in caught if "not resumable" in str(w.message)]
    assert resumed.trainer.global_step == unbroken.trainer.global_step == 8
    final, restarted = unbroken.model.state_dict(), resumed.model.state_dict()
    assert final.keys() == restarted.keys()
    assert max((final[name] - restarted[name]).abs().max().item() for name in final) == 0.0
    assert any(not torch.equal(final[name], stopped["state_dict"][name]) for name in final)  # it did train on
    assert unbroken.model.rng.bit_generator.state == resumed.model.rng.bit_generator.state
    assert resumed.trainer.optimizers[0].param_groups[0]["lr"] == 0.0


def test_a_linear_decay_reaches_zero_at_max_steps(
    roberta_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    schedule = ["--model.scheduler.init_args.warmup_steps=2", "--model.scheduler.init_args.decay=linear"]
    steps = ["--trainer.max_steps=6", "--trainer.max_epochs=100", "--trainer.limit_val_batches=0"]
    steps += ["--data.batch_size=8"]
    rates = _RecordRates()
    cli = TrainingCLI(
        PlausibilityModule,
        PairsDataModule,
        args=["fit", *_arguments("roberta.yaml", roberta_backbone, fixtures, *schedule, *steps)],
        trainer_defaults={"callbacks": [rates]},
    )
    # lr 1e-4; warm-up from 1% over 2 steps, then 1 - (step - 2) / 4: zero once the 6th step is taken
    assert rates.rates == pytest.approx([1e-6, 5.05e-5, 1e-4, 7.5e-5, 5e-5, 2.5e-5], rel=1e-9)  # float64: ulps
    assert cli.trainer.optimizers[0].param_groups[0]["lr"] == 0.0


@pytest.fixture
def roberta_checkpoint(roberta_backbone: str, fixtures: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A RoBERTa classifier trained for 2 steps, its optimizer state and schedule 2 steps on."""
    monkeypatch.chdir(tmp_path)
    steps = ["--trainer.max_steps=2", "--trainer.limit_val_batches=0"]
    TrainingCLI(
        PlausibilityModule,
        PairsDataModule,
        args=["fit", *_arguments("roberta.yaml", roberta_backbone, fixtures, *steps)],
    )
    return tmp_path / "runs" / "roberta" / "checkpoints" / "last.ckpt"


def test_init_from_starts_from_the_nets_weights_with_a_fresh_optimizer(
    roberta_checkpoint: Path, roberta_backbone: str, fixtures: Path
) -> None:
    source = torch.load(roberta_checkpoint, map_location="cpu", weights_only=True)
    assert source["optimizer_states"][0]["state"][0]["step"].item() == 2
    arguments = _arguments("concept_max.yaml", roberta_backbone, fixtures, f"--model.init_from={roberta_checkpoint}")
    built = TrainingCLI(PlausibilityModule, PairsDataModule, run=False, args=arguments)
    weights = built.model.state_dict()
    assert weights.keys() == source["state_dict"].keys()
    assert all(torch.equal(weights[name], source["state_dict"][name]) for name in weights)

    steps = ["--trainer.max_steps=1", "--trainer.limit_val_batches=0"]
    trained = TrainingCLI(PlausibilityModule, PairsDataModule, args=["fit", *arguments, *steps])
    optimizer = trained.trainer.optimizers[0]
    assert {state["step"].item() for state in optimizer.state.values()} == {1}
    assert trained.trainer.lr_scheduler_configs[0].scheduler.last_epoch == 1


def test_init_from_a_checkpoint_of_another_backbone_says_which(
    roberta_checkpoint: Path, bert_backbone: str, fixtures: Path
) -> None:
    arguments = _arguments("roberta.yaml", bert_backbone, fixtures, f"--model.init_from={roberta_checkpoint}")
    with pytest.raises(IncompatibleCheckpointError) as raised:
        TrainingCLI(PlausibilityModule, PairsDataModule, run=False, args=arguments)
    assert str(raised.value) == (
        f"{roberta_checkpoint}: its net does not fit this one (1 weight differs, e.g. "
        "encoder.embeddings.position_embeddings.weight is (66, 32) there, (64, 32) here); "
        "give init_from a checkpoint trained with the same net and backbone"
    )

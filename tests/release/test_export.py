"""`plausibility export`: tiny trained checkpoints as model folders that load without unpickling."""

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch
import yaml
from huggingface_hub import ModelCard
from safetensors.torch import load_file

from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.cli import main
from plausibility.corpus.artefacts import PAIR_COLUMNS
from plausibility.errors import DataFormatError, PlausibilityError, ResourceMissingError
from plausibility.evaluation.grids import measure_consistency
from plausibility.evaluation.intervals import AucInterval
from plausibility.metrics import roc_auc
from plausibility.models.datamodule import PairsDataModule
from plausibility.models.system import PlausibilityModule
from plausibility.models.training import TrainingCLI
from plausibility.release.export import export_model
from plausibility.release.model_card import _model_argument
from plausibility.resources.paths import data_dir, portable_path
from plausibility.scorers.calibrated import CalibratedScorer
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.registry import build_scorer
from plausibility.scorers.trained import load_trained

CONFIGS = Path(__file__).parents[2] / "configs" / "models"
FILES = ["README.md", "calibration.json", "config.yaml", "lexicon.json", "model.safetensors"]


# Events in the tiny backbone's vocabulary: each verb with objects that fit it, and objects that do not.
FITTING = {"eat": "bread meat apple fruit cookie", "drink": "water milk", "read": "book", "ride": "horse car"}
UNFITTING = {"eat": "door car stone", "drink": "book stone door", "read": "water milk", "ride": "milk bread"}
SUBJECTS = "person dog child chef man woman student teacher farmer".split()


def _pairs(folder: Path) -> Path:
    """Attested events against pseudo-negatives the tiny model can tell apart (the wrong object for the verb)."""
    rows = []
    for i, subject in enumerate(SUBJECTS):
        for j, (verb, objects) in enumerate(FITTING.items()):
            for k, obj in enumerate(objects.split()):
                wrong = UNFITTING[verb].split()
                rows.append((subject, verb, obj, subject, verb, wrong[(i + j + k) % len(wrong)]))
    path = folder / "pairs.parquet"
    pd.DataFrame(rows, columns=list(PAIR_COLUMNS)).to_parquet(path)
    return path


def _train(config: str, backbone: str, folder: Path) -> Path:
    """A run folder of `plausibility fit`: 12 steps of 4 pairs at a high learning rate.

    Enough for the tiny model to rank the attested events above their pseudo-negatives, which a monotone
    calibration needs.
    """
    arguments = [
        f"--config={CONFIGS / config}",
        f"--model.net.init_args.backbone={backbone}",
        f"--data.pairs={_pairs(folder)}",
        "--data.eval_batch_size=128",
        "--data.batch_size=4",
        "--trainer.enable_progress_bar=false",
        "--trainer.max_steps=12",
        "--trainer.val_check_interval=12",
        "--model.optimizer.init_args.lr=3e-3",
        "--model.scheduler.init_args.warmup_steps=1",
        "--trainer.limit_val_batches=1",
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        TrainingCLI(PlausibilityModule, PairsDataModule, args=["fit", *arguments])
    return next(folder.glob("runs/*/checkpoints/last.ckpt")).parent.parent


@pytest.fixture(scope="module")
def classifier_run(roberta_backbone: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _train("roberta.yaml", roberta_backbone, tmp_path_factory.mktemp("classifier"))


@pytest.fixture(scope="module")
def concept_max_run(roberta_backbone: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _train("concept_max.yaml", roberta_backbone, tmp_path_factory.mktemp("concept_max"))


@pytest.fixture(scope="module")
def classifier_folder(classifier_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("exports") / "classifier"
    export_model(classifier_run, target, evaluate=False, calibration_pairs=100)
    return target


def _events(count: int) -> tuple[list, list[int]]:
    events = load_plausibility_set("pep3k", "valid")[:count]
    return [event.triple for event in events], [event.label for event in events]


def test_exported_folder_scores_as_the_checkpoint_within_fp16(classifier_run: Path, classifier_folder: Path) -> None:
    assert sorted(path.name for path in classifier_folder.iterdir()) == FILES
    weights = load_file(classifier_folder / "model.safetensors")
    assert {tensor.dtype for tensor in weights.values() if tensor.is_floating_point()} == {torch.float16}
    checkpoint = torch.load(classifier_run / "checkpoints" / "last.ckpt", map_location="cpu", weights_only=True)
    assert sorted(weights) == sorted(name.removeprefix("net.") for name in checkpoint["state_dict"])
    triples, labels = _events(300)
    original = load_trained(str(classifier_run / "checkpoints" / "last.ckpt")).score(triples)
    exported = build_scorer(str(classifier_folder))
    assert isinstance(exported, CalibratedScorer)
    assert next(exported.scorer.net.parameters()).dtype == torch.float32
    scores = exported.score(triples)
    assert np.max(np.abs(scores - original)) < 1e-3  # fp16 weights (2^-11 relative) move these logits by ~2e-4
    # to 3 decimals: fp16 may swap events this tiny net scores within 1e-3 of each other
    assert roc_auc(labels, scores) == pytest.approx(roc_auc(labels, original), abs=1e-3)
    # the calibrated map keeps the order of the scores, so the AUC of its probabilities is the AUC of the scores
    assert roc_auc(labels, exported.to_probability(scores)) == roc_auc(labels, scores)


def test_a_concept_max_folder_loads_as_concept_max(concept_max_run: Path, tmp_path: Path) -> None:
    target = tmp_path / "concept_max"
    # Twelve steps leave the tiny ConceptMax's calibration slope to chance; calibration inside ConceptMax is
    # tested on its own in tests/scorers/test_calibration.py.
    export_model(concept_max_run / "checkpoints" / "last.ckpt", target, evaluate=False, calibration_pairs=0)
    triples, _ = _events(40)
    original = load_trained(str(concept_max_run / "checkpoints" / "last.ckpt"))
    for spec in (str(target), f"conceptmax:{target}"):
        exported = build_scorer(spec)
        assert isinstance(exported, ConceptMax)
        assert exported.lexicon == original.lexicon
        # fp16 weights (2^-11 relative) move each cell's logit by up to ~3e-4, and so their maximum
        assert np.max(np.abs(exported.score(triples) - original.score(triples))) < 1e-3


def test_an_evaluated_export_records_its_aucs(classifier_run: Path, tmp_path: Path) -> None:
    result = export_model(classifier_run, tmp_path / "model", calibration_pairs=0, cold_start_runs=1)
    recorded = json.loads((tmp_path / "model" / "evaluation.json").read_text())
    halves = ["20q/test", "20q/valid", "pep3k/test", "pep3k/valid"]
    own = [f"{half}/own_probabilities" for half in halves]  # no calibration: no calibrated figures
    assert sorted(recorded) == sorted([*halves, *own, "20q/test/consistency", "pep3k/test/consistency"])
    for half in halves:
        dataset, split = half.split("/")
        assert AucInterval(**recorded[half]) == result.result.auc[dataset][split]
        assert recorded[half]["low"] <= recorded[half]["estimate"] <= recorded[half]["high"]
    card = (tmp_path / "model" / "README.md").read_text()
    assert f"| pep3k | {recorded['pep3k/valid']['estimate']:.3f} [" in card
    metadata = ModelCard(card).data  # the block a model hub reads: the measured test AUCs
    assert {r.dataset_type: r.metric_value for r in metadata.eval_results} == {
        dataset: round(recorded[f"{dataset}/test"]["estimate"], 3) for dataset in ("pep3k", "20q")
    }
    # measured on the folder as written, in fresh processes
    assert result.cold_start is not None and 0 < result.cold_start.seconds < 60 and result.cold_start.runs == 1
    assert f"Cold start: {result.cold_start.describe()}." in card
    # CCΔ / LER of the exported weights, as `plausibility consistency` measures them on the test halves
    exported = build_scorer(f"uncalibrated:{tmp_path / 'model'}")  # exported with no calibration
    for dataset in ("pep3k", "20q"):
        events = [event.triple for event in load_plausibility_set(dataset, "test")]
        measured = measure_consistency(exported, events)
        figures = recorded[f"{dataset}/test/consistency"]
        # The export's scorer kept each event's logit from its AUC pass (other batches), so float32 padding noise
        # moves a probability by up to ~1e-7 (a few ulps of a logit, times a sigmoid slope <= 1/4): so much at most
        # for a mean of sags. LER counts strict extrema: equal unless that noise flips a near-tie.
        assert figures["ccd"] == pytest.approx(measured.concavity_delta, abs=1e-7)
        assert figures["ler"] == pytest.approx(measured.local_extremum_rate, abs=1e-9)
        assert figures["windows"] == measured.n_windows > 0
        assert f"| {dataset} | {figures['ccd']:.4f} | " in card


def test_a_folder_holding_a_pickle_file_is_refused(classifier_folder: Path, tmp_path: Path) -> None:
    folder = tmp_path / "model"
    shutil.copytree(classifier_folder, folder)
    torch.save({"weights": torch.ones(2)}, folder / "extra.pt")
    message = f"{folder}: holds pickle file extra.pt, which could run code when read; remove it or export afresh"
    with pytest.raises(DataFormatError) as raised:
        build_scorer(str(folder))
    assert str(raised.value) == message


def test_export_refuses_a_folder_with_files_unless_overwriting(classifier_run: Path, tmp_path: Path) -> None:
    target = tmp_path / "model"
    target.mkdir()
    (target / "notes.txt").write_text("keep me")
    with pytest.raises(PlausibilityError) as raised:
        export_model(classifier_run, target, evaluate=False, calibration_pairs=0)
    assert str(raised.value) == f"{target}: folder is not empty; give an empty or new folder, or pass --overwrite"
    assert [path.name for path in target.iterdir()] == ["notes.txt"]
    export_model(classifier_run, target, overwrite=True, evaluate=False, calibration_pairs=0)
    assert sorted(path.name for path in target.iterdir()) == [
        "README.md",
        "config.yaml",
        "lexicon.json",
        "model.safetensors",
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["model"]  # no staging folder left behind


def test_bad_sources_fail_in_one_line_and_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    missing = tmp_path / "runs" / "nothing"
    assert main(["export", str(missing), str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == (
        f"plausibility export: error: {missing}: no such checkpoint or run folder; train one with `plausibility fit`\n"
    )
    empty_run = tmp_path / "run"
    empty_run.mkdir()
    with pytest.raises(ResourceMissingError, match="no checkpoints/last.ckpt; give a checkpoint or a run folder"):
        export_model(empty_run, tmp_path / "out")
    not_a_checkpoint = tmp_path / "last.ckpt"
    not_a_checkpoint.write_text("not a checkpoint")
    with pytest.raises(DataFormatError, match=r"last.ckpt: not a readable checkpoint"):
        export_model(not_a_checkpoint, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["last.ckpt", "run"]


def test_the_command_writes_a_card_with_the_training_record_and_auc(
    classifier_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    target = tmp_path / "model"
    assert main(["export", str(classifier_run), str(target), "--calibration-pairs=50", "--cold-start-runs=0"]) == 0
    printed = capsys.readouterr().out
    assert f"exported model 1.0 to {target}" in printed and "AUC pep3k: valid " in printed
    card = (target / "README.md").read_text()
    assert "(global step 12, epoch 0)\n- batch size: 4\n- pairs seen: 48 (steps x batch size)\n" in card
    assert "(from the CSV logger's file times; validation included)" in card and "Cold start" not in card
    assert "| pep3k | 0." in card and "| 20q | 0." in card
    assert "fitted on 50 of the 90 pairs of pairs.parquet, drawn by numpy default_rng(0)" in card
    assert "each pair was seen in training with probability about 53% (48 pairs seen of 90)" in card
    assert {oct(path.stat().st_mode & 0o777) for path in target.iterdir()} == {"0o644"}
    config = yaml.safe_load((target / "config.yaml").read_text())
    assert config["format"] == "plausibility-model/1" and config["training"]["batch_size"] == 4
    assert (config["name"], config["version"]) == ("model", "1.0")
    assert "vocabulary" not in config["model"] and config["model"]["abstractions"] == 0


@pytest.mark.parametrize("option", ["--calibration-pairs", "--cold-start-runs"])
def test_a_negative_count_is_one_line_naming_the_option(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    assert main(["export", "runs/none", str(tmp_path / "model"), f"{option}=-1"]) == 1
    assert capsys.readouterr().err == f"plausibility export: error: {option} must be 0 or more, got -1\n"
    assert not (tmp_path / "model").exists()
    if option == "--cold-start-runs":  # the API refuses it too, before any work
        with pytest.raises(ValueError, match="cold_start_runs must be 0 or more, got -1"):
            export_model("runs/none", tmp_path / "model", cold_start_runs=-1)


def test_the_card_names_a_shipped_model_and_the_package_data_as_a_reader_can_find_them(tmp_path: Path) -> None:
    shipped = data_dir() / "models" / "conceptmax"
    assert _model_argument(shipped) == "conceptmax"  # what `--model` and `load_scorer` take
    assert _model_argument(tmp_path / "conceptmax") == str(tmp_path / "conceptmax")
    assert portable_path(data_dir() / "training" / "pairs.parquet") == "data/training/pairs.parquet"
    assert portable_path(tmp_path / "pairs.parquet") == str(tmp_path / "pairs.parquet")


def test_a_failed_export_leaves_nothing_behind(classifier_run: Path, tmp_path: Path) -> None:
    broken = tmp_path / "pairs.parquet"
    broken.write_text("not parquet")
    target = tmp_path / "exports" / "model"
    with pytest.raises(DataFormatError, match=r"pairs.parquet: not a pairs table with subject, verb, object"):
        export_model(classifier_run, target, evaluate=False, calibration_pairs=10, pairs=broken)
    assert list((tmp_path / "exports").iterdir()) == []  # neither the folder nor its staging copy


def test_a_folder_without_weights_names_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["score", "dog", "eat", "bone", "--model", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"plausibility score: error: {tmp_path}: no model.safetensors here; export a model with `plausibility export`\n"
    )


def test_a_concept_inject_folder_keeps_reading_senses(roberta_backbone: str, tmp_path: Path) -> None:
    run = _train("concept_inject.yaml", roberta_backbone, tmp_path)
    export_model(run, tmp_path / "model", evaluate=False, calibration_pairs=0)
    exported = build_scorer(f"uncalibrated:{tmp_path / 'model'}")
    assert not isinstance(exported, CalibratedScorer)  # the net's own sigmoid
    assert hasattr(exported, "score_abstractions")
    triples, _ = _events(50)
    original = load_trained(str(run / "checkpoints" / "last.ckpt")).score(triples)
    assert np.max(np.abs(exported.score(triples) - original)) < 1e-3  # fp16 weights (2^-11 relative): ~5e-5 here


def test_an_exported_folder_exported_anew_keeps_its_weights_and_summary(classifier_run: Path, tmp_path: Path) -> None:
    first = tmp_path / "first"
    export_model(classifier_run, first, evaluate=False, calibration_pairs=0, summary="a tiny test classifier")
    again = tmp_path / "again"
    export_model(first, again, evaluate=False, calibration_pairs=0, name="again", version="1.1")
    assert (again / "model.safetensors").read_bytes() == (first / "model.safetensors").read_bytes()
    config = yaml.safe_load((again / "config.yaml").read_text())
    assert (config["name"], config["version"], config["summary"]) == ("again", "1.1", "a tiny test classifier")
    card = ModelCard((again / "README.md").read_text())
    assert card.text.lstrip().startswith("# again 1.1\n\nA tiny test classifier.\n")
    assert card.data.eval_results is None  # not evaluated: no results to claim

"""`plausibility evaluate` on a tiny trained checkpoint: metrics.json, score dumps, subsets and errors."""

import json
import os
from pathlib import Path

import pytest

from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.cli import main
from plausibility.lexicon.event_lemmas import EventLemmas
from plausibility.metrics import roc_auc
from plausibility.models.datamodule import PairsDataModule
from plausibility.models.system import PlausibilityModule
from plausibility.models.training import TrainingCLI
from plausibility.scorers.trained import load_trained

CONFIGS = Path(__file__).parents[2] / "configs" / "models"


@pytest.fixture(scope="module")
def checkpoint(roberta_backbone: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("evaluate")
    pairs = Path(__file__).parents[1] / "fixtures" / "training" / "pairs.parquet"
    previous = Path.cwd()
    os.chdir(folder)
    try:
        TrainingCLI(
            PlausibilityModule,
            PairsDataModule,
            args=[
                "fit",
                f"--config={CONFIGS / 'roberta.yaml'}",
                f"--model.net.init_args.backbone={roberta_backbone}",
                f"--data.pairs={pairs}",
                "--trainer.max_steps=1",
                "--trainer.limit_val_batches=0",
                "--trainer.enable_progress_bar=false",
            ],
        )
    finally:
        os.chdir(previous)
    return str(folder / "runs" / "roberta" / "checkpoints" / "last.ckpt")


def test_evaluate_writes_the_auc_of_every_selected_half(checkpoint: str, tmp_path: Path) -> None:
    dump = tmp_path / "scores.tsv"
    arguments = ["--benchmarks", "pep3k", "--splits", "valid", "--dump-scores", str(dump)]
    assert main(["evaluate", "--model", checkpoint, "--output", str(tmp_path / "out"), *arguments]) == 0
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    events = load_plausibility_set("pep3k", "valid")
    scores = load_trained(checkpoint).score(EventLemmas()([event.triple for event in events]))  # as `score` reads them
    (figure,) = metrics["figures"]  # one half, one figure: its AUC with the interval and the events it pools
    assert (figure["benchmark"], figure["split"], figure["group"], figure["figure"]) == ("pep3k", "valid", "all", "auc")
    # metrics.json rounds to 6 decimals; the scores are the same (the same distinct triples, the same batches)
    assert figure["value"] == pytest.approx(roc_auc([e.label for e in events], scores), abs=1e-6)
    assert figure["low"] < figure["value"] < figure["high"] and figure["n"] == len(events)
    assert metrics["model"]["spec"] == checkpoint and metrics["plausibility_version"]
    assert (tmp_path / "out" / "metrics.md").read_text().startswith("| benchmark | split | group | figure |")
    lines = dump.read_text().splitlines()
    assert (
        lines[0] == "benchmark\tsplit\tsubject\tverb\tobject\tlabel\tscore\tfillers" and len(lines) == len(events) + 1
    )


def test_evaluate_wraps_a_checkpoint_in_concept_max(checkpoint: str, tmp_path: Path) -> None:
    arguments = ["--benchmarks", "20q", "--splits", "test"]
    assert main(["evaluate", "--model", f"conceptmax:{checkpoint}", "--output", str(tmp_path), *arguments]) == 0
    figures = json.loads((tmp_path / "metrics.json").read_text())["figures"]
    assert [(f["benchmark"], f["split"]) for f in figures] == [("20q", "test")]


def test_evaluate_rejects_unknown_sets_and_missing_checkpoints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["evaluate", "--model", "x.ckpt", "--output", str(tmp_path), "--benchmarks", "pep4k"])
    assert "unknown benchmark 'pep4k'; known: 20q, pap, pep3k, plain, reversals" in capsys.readouterr().err
    assert main(["evaluate", "--model", str(tmp_path / "none.ckpt"), "--output", str(tmp_path)]) == 1
    assert capsys.readouterr().err.strip().endswith("no such checkpoint; train one with `plausibility fit`")
    assert not (tmp_path / "metrics.json").exists()


def test_score_command_on_a_checkpoint_is_stable_and_equals_the_model(
    checkpoint: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import numpy as np
    import pandas as pd

    from plausibility.triple import Triple

    source = tmp_path / "in.tsv"
    source.write_text("subject\tverb\tobject\nperson\tbreathe\tair\nrock\teat\tsandwich\n")
    outputs = [tmp_path / "first.tsv", tmp_path / "second.tsv"]
    for output in outputs:
        assert main(["score", "--input", str(source), "--output", str(output), "--model", checkpoint]) == 0
    first, second = (pd.read_csv(output, sep="\t") for output in outputs)
    assert first["score"].tolist() == second["score"].tolist()
    direct = load_trained(checkpoint).score([Triple("person", "breathe", "air"), Triple("rock", "eat", "sandwich")])
    # the same two triples in one batch both ways; the TSV holds repr, read back within an ulp
    np.testing.assert_allclose(first["score"], direct, rtol=1e-6)
    assert main(["score", "person", "breathe", "air", "--model", checkpoint]) == 0
    assert f"{direct[0]:.4f}" in capsys.readouterr().out

"""GloVe+MLP: built from its YAML through the shared system, it trains and reloads from a checkpoint."""

import json
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from plausibility.baselines.glove_mlp import UNKNOWN, GloveMlpNet, pair_vocabulary
from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.models.datamodule import PairsDataModule
from plausibility.models.model_folder import EXTRA_STATE
from plausibility.models.system import PlausibilityModule
from plausibility.models.training import TrainingCLI
from plausibility.release.export import export_model
from plausibility.resources.glove import load_glove
from plausibility.scorers.net import trained_scorer
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple

CONFIGS = Path(__file__).parents[2] / "configs" / "models"
CONFIG = CONFIGS / "glove_mlp.yaml"


@pytest.fixture
def pairs(fixtures: Path) -> str:
    return str(fixtures / "training" / "pairs.parquet")


def build(pairs: str, tmp_path: Path, max_steps: int, config: Path = CONFIG, lr: float | None = 0.01) -> TrainingCLI:
    """A real config, with the fixture pairs, no validation, no logger and no checkpoint callback."""
    overrides = [f"--data.pairs={pairs}", "--data.batch_size=16"]
    overrides += [f"--model.optimizer.init_args.lr={lr}"] if lr else []  # a few steps on 160 pairs: a larger step
    overrides += [f"--trainer.max_steps={max_steps}", "--trainer.limit_val_batches=0", "--trainer.logger=false"]
    overrides += ["--trainer.callbacks=[]", "--trainer.enable_checkpointing=false", "--trainer.max_epochs=50"]
    overrides += [f"--trainer.default_root_dir={tmp_path}", "--trainer.enable_progress_bar=false"]
    return TrainingCLI(PlausibilityModule, PairsDataModule, args=["--config", str(config), *overrides], run=False)


def pair_loss(module: PlausibilityModule, data: PairsDataModule) -> float:
    """The training objective over every fixture pair at once."""
    positives, negatives = [], []
    for batch in data.train_dataloader():
        positives += batch.positives
        negatives += batch.negatives
    with torch.no_grad():
        logits = module.training_logits(positives + negatives)
    labels = torch.cat([torch.ones(len(positives)), torch.zeros(len(negatives))])
    return float(F.binary_cross_entropy_with_logits(logits, labels))


def test_training_steps_lower_the_loss_and_the_checkpoint_scores_the_same(pairs: str, tmp_path: Path) -> None:
    cli = build(pairs, tmp_path, max_steps=60)
    assert isinstance(cli.model.net, GloveMlpNet)
    before = pair_loss(cli.model, cli.datamodule)
    cli.trainer.fit(cli.model, cli.datamodule)
    after = pair_loss(cli.model, cli.datamodule)
    assert after < before - 0.1

    path = tmp_path / "glove_mlp.ckpt"
    cli.trainer.save_checkpoint(path)
    events = [Triple("dog", "eat", "bone"), Triple("stone", "eat", "dog"), Triple("zebra", "chase", "qwzxy")]
    expected = trained_scorer(
        cli.model.net, cli.model.lexicon, cli.model.abstractions, cli.model.eval_batch_size
    ).score(events)
    reloaded = build_scorer(f"glove-mlp:{path}")
    # the same float32 weights, one batch of the three events both ways (an MLP pads nothing): equal
    np.testing.assert_allclose(reloaded.score(events), expected, rtol=1e-6)
    # batch order; exact too: the scorer keeps each triple's logit, read back here in reverse
    np.testing.assert_allclose(reloaded.score(events[::-1]), expected[::-1], rtol=1e-6)


def test_an_exported_folder_keeps_the_vocabulary_and_scores_as_the_checkpoint(pairs: str, tmp_path: Path) -> None:
    cli = build(pairs, tmp_path, max_steps=20)
    cli.trainer.fit(cli.model, cli.datamodule)
    checkpoint = tmp_path / "glove_mlp.ckpt"
    cli.trainer.save_checkpoint(checkpoint)
    export_model(checkpoint, tmp_path / "model", evaluate=False, calibration_pairs=0)

    # the vocabulary is the net's extra state: not a tensor, so it travels as JSON beside the weights
    saved = json.loads((tmp_path / "model" / EXTRA_STATE).read_text(encoding="utf-8"))
    assert list(saved.values()) == [pair_vocabulary(pairs)]
    events = [Triple("dog", "eat", "bone"), Triple("stone", "eat", "dog"), Triple("zebra", "chase", "qwzxy")]
    exported = build_scorer(f"uncalibrated:{tmp_path / 'model'}").score(events)
    np.testing.assert_allclose(
        exported,
        trained_scorer(cli.model.net, cli.model.lexicon, cli.model.abstractions, cli.model.eval_batch_size).score(
            events
        ),
        atol=1e-3,
    )  # fp16 weights and GloVe rows (rounded by up to 2^-11 relative) move these logits by ~1e-5


def test_the_paper_config_builds_with_the_thesis_optimizer(pairs: str, tmp_path: Path) -> None:
    cli = build(pairs, tmp_path, max_steps=1, config=CONFIGS / "glove_mlp-paper.yaml", lr=None)
    assert isinstance(cli.model.net, GloveMlpNet)
    optimizer = cli.model.configure_optimizers()["optimizer"]
    assert isinstance(optimizer, torch.optim.Adam) and optimizer.defaults["lr"] == 2e-5


def test_embeddings_start_from_glove_and_unseen_words_take_their_glove_vector(pairs: str) -> None:
    torch.manual_seed(0)
    net = GloveMlpNet(pairs=pairs, hidden_size=8)
    glove = load_glove()
    assert net.words == pair_vocabulary(pairs)
    assert "eat" in net.words and "dog" in net.words and "zebra" not in net.words
    ids = net.featurize([Triple("dog", "eat", "zebra"), Triple("qwzxy", "eat", "dog")])["word_ids"]
    assert ids[0, 2] == net.embeddings.num_embeddings  # first unseen word: first row past the table
    assert ids[1, 0] == UNKNOWN

    def vector(word: str) -> torch.Tensor:
        return torch.from_numpy(glove.vectors[glove.index[word]].copy())

    torch.testing.assert_close(net.embeddings.weight[ids[0, 0]], vector("dog"))  # exact: the float32 row copied
    torch.testing.assert_close(net.unseen[0], vector("zebra"))  # exact: the float32 row copied
    # the unseen vector is used as an input exactly like a trained row holding it
    with torch.no_grad():
        net.embeddings.weight[1] = net.unseen[0]
        direct = net(torch.tensor([[ids[0, 0], ids[0, 1], 1]]))
        through_unseen = net(ids[:1])
    torch.testing.assert_close(direct, through_unseen)  # the same float32 vector through the same layers: equal


def test_glove_mlp_spec_needs_a_glove_mlp_checkpoint(tmp_path: Path) -> None:
    with pytest.raises(ResourceMissingError, match="^glove-mlp needs a trained checkpoint"):
        build_scorer("glove-mlp")
    missing = tmp_path / "missing.ckpt"
    with pytest.raises(ResourceMissingError) as raised:
        build_scorer(f"glove-mlp:{missing}")
    assert str(raised.value) == f"{missing}: no such checkpoint; train one with `plausibility fit`"
    other = tmp_path / "other.ckpt"
    classifier = "plausibility.models.components.classifier.TripleClassifier"
    torch.save({"hyper_parameters": {"net": {"class_path": classifier}}, "state_dict": {"net.w": torch.ones(1)}}, other)
    with pytest.raises(DataFormatError) as raised:
        build_scorer(f"glove-mlp:{other}")
    assert str(raised.value) == f"{other}: holds a TripleClassifier net, not a GloveMlpNet; give one trained so"


def test_the_net_reads_the_pairs_the_data_reads(pairs: str, tmp_path: Path) -> None:
    cli = build(pairs, tmp_path, max_steps=1)
    assert cli.config["model"]["net"]["init_args"]["pairs"] == pairs  # linked, never given twice
    assert cli.model.net.words == pair_vocabulary(pairs)

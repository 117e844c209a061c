"""The one loader of trained models: every net class, from a checkpoint or an exported folder; others refused."""

from pathlib import Path

import numpy as np
import pytest
import torch
from trained_models import NETS as CLASS_PATHS
from trained_models import TRIPLES, Saved

from plausibility.baselines.glove_mlp import GloveMlpNet
from plausibility.devices import LoadOptions
from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.models.components.classifier import TripleClassifier
from plausibility.models.components.concept_inject import ConceptInjectClassifier
from plausibility.release.export import export_model
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.net import NetScorer, SenseNetScorer
from plausibility.scorers.trained import NETS, load_trained


def test_the_allow_list_is_the_three_nets_by_their_config_names() -> None:
    assert {
        CLASS_PATHS["classifier"]: TripleClassifier,
        CLASS_PATHS["concept_inject"]: ConceptInjectClassifier,
        CLASS_PATHS["glove_mlp"]: GloveMlpNet,
    } == NETS


@pytest.mark.parametrize(
    ("name", "net", "kind"),
    [
        ("classifier", TripleClassifier, NetScorer),
        ("concept_inject", ConceptInjectClassifier, SenseNetScorer),
        ("glove_mlp", GloveMlpNet, NetScorer),
        ("concept_max", TripleClassifier, ConceptMax),
    ],
)
def test_each_net_class_loads_as_its_scorer_with_its_weights(
    checkpoints: dict[str, Saved], name: str, net: type, kind: type
) -> None:
    saved = checkpoints[name]
    scorer = load_trained(saved.path)
    assert type(scorer) is kind
    inner = scorer.searched if isinstance(scorer, ConceptMax) else scorer
    assert type(inner.net) is net and not inner.net.training
    assert inner.lexicon is not None and inner.lexicon.vocabulary is not None  # the saved training nouns
    # the saved weights in the same batches of 16 as the saved scores: equal (a logit near -1.1 has ulp 2.4e-7)
    np.testing.assert_allclose(scorer.score(TRIPLES), saved.scores, rtol=1e-6, atol=1e-6)


def test_an_exported_folder_loads_through_the_same_loader(checkpoints: dict[str, Saved], tmp_path: Path) -> None:
    for name in ("classifier", "concept_inject"):
        export_model(checkpoints[name].path, tmp_path / name, evaluate=False, calibration_pairs=0)
        scorer = load_trained(tmp_path / name)
        assert type(scorer) is type(load_trained(checkpoints[name].path))
        # fp16 weights (rounded by up to 2^-11 relative) move this tiny net's logits by ~3e-5
        assert np.max(np.abs(scorer.score(TRIPLES) - checkpoints[name].scores)) < 1e-3
    with pytest.raises(ResourceMissingError) as raised:
        load_trained(tmp_path)
    assert str(raised.value) == f"{tmp_path}: no model.safetensors here; export a model with `plausibility export`"


FOREIGN = ["torch.nn.Linear", "os.system", "plausibility.models.system.PlausibilityModule"]


@pytest.mark.parametrize("class_path", FOREIGN)
def test_a_class_outside_the_allow_list_is_refused(class_path: str, tmp_path: Path) -> None:
    path = tmp_path / "foreign.ckpt"
    torch.save({"hyper_parameters": {"net": {"class_path": class_path}}, "state_dict": {"net.w": torch.ones(1)}}, path)
    with pytest.raises(DataFormatError) as raised:
        load_trained(path)
    assert str(raised.value) == (
        f"{path}: {class_path!r} is not a net of this package (TripleClassifier, ConceptInjectClassifier, "
        "GloveMlpNet); retrain with `plausibility fit`"
    )


def test_a_pickled_object_is_never_unpickled(tmp_path: Path) -> None:
    path = tmp_path / "pickled.ckpt"
    torch.save({"hyper_parameters": {"net": torch.nn.Linear(1, 1)}}, path)  # a module: only a pickle holds it
    with pytest.raises(DataFormatError, match=f"^{path}: not a readable checkpoint"):
        load_trained(path)


def test_options_choose_the_dtype_and_batch_size(checkpoints: dict[str, Saved]) -> None:
    saved = checkpoints["classifier"]
    scorer = load_trained(saved.path, LoadOptions(device="cpu", dtype="bfloat16", batch_size=1))
    assert {parameter.dtype for parameter in scorer.net.parameters()} == {torch.bfloat16}
    assert {parameter.device for parameter in scorer.net.parameters()} == {torch.device("cpu")}
    assert scorer.batch_size == 1 and not scorer.net.training
    np.testing.assert_allclose(scorer.score(TRIPLES), saved.scores, atol=0.05)  # bfloat16 (2^-8): logits move ~3e-3
    one_at_a_time = load_trained(saved.path, LoadOptions(batch_size=1)).score(TRIPLES)
    # batches of 1 vs the saved 16: padding moves a float32 logit near -1.1 by a few ulps (2.4e-7); rtol gives 1e-5
    np.testing.assert_allclose(one_at_a_time, saved.scores, rtol=1e-5, atol=1e-6)


def test_scoring_a_trained_model_never_imports_lightning(checkpoints: dict[str, Saved]) -> None:
    import subprocess
    import sys

    # A fresh interpreter: this one has Lightning loaded by the fixtures that trained the models.
    code = (
        "import sys; from plausibility.scorers.registry import build_scorer; "
        f"build_scorer({str(checkpoints['concept_max'].path)!r}).score([]); print('lightning' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"

"""A checkpoint of each net class, saved once per session."""

from pathlib import Path

import pytest
from trained_models import NETS, TRIPLES, Saved, save_checkpoint

from plausibility.scorers.net import trained_scorer


@pytest.fixture(scope="session")
def checkpoints(roberta_backbone: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Saved]:
    """One checkpoint per net class, and a ConceptMax-trained classifier, with the scores they were saved with."""
    folder = tmp_path_factory.mktemp("checkpoints")
    pairs = str(Path(__file__).parents[1] / "fixtures" / "training" / "pairs.parquet")
    arguments = {
        "classifier": (NETS["classifier"], {"backbone": roberta_backbone}, 0),
        "concept_max": (NETS["classifier"], {"backbone": roberta_backbone}, 3),
        "concept_inject": (NETS["concept_inject"], {"backbone": roberta_backbone}, 0),
        "glove_mlp": (NETS["glove_mlp"], {"pairs": pairs, "hidden_size": 8}, 0),
    }
    paths = {}
    for name, (class_path, init_args, abstractions) in arguments.items():
        path = folder / f"{name}.ckpt"
        module = save_checkpoint(path, class_path, init_args, abstractions)
        paths[name] = Saved(
            path, trained_scorer(module.net, module.lexicon, module.abstractions, module.eval_batch_size).score(TRIPLES)
        )
    return paths

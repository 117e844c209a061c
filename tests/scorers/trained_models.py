"""Trained models saved as `plausibility fit` saves them, one per net class, built tiny and untrained."""

import warnings
from pathlib import Path
from typing import NamedTuple

import numpy as np
import torch

from plausibility.models.system import PlausibilityModule
from plausibility.triple import Triple

TRIPLES = [Triple("dog", "eat", "bone"), Triple("person", "breathe", "air"), Triple("dentist", "breathe", "helium")]
NOUNS = ["person", "dog", "cat", "food", "water", "bone", "air", "gas", "helium", "dentist", "animal", "organism"]
NETS = {
    "classifier": "plausibility.models.components.classifier.TripleClassifier",
    "concept_inject": "plausibility.models.components.concept_inject.ConceptInjectClassifier",
    "glove_mlp": "plausibility.baselines.glove_mlp.GloveMlpNet",
}


def save_checkpoint(path: Path, class_path: str, init_args: dict, abstractions: int = 0) -> PlausibilityModule:
    """A checkpoint with the keys a fit's holds (saved config, `net.` weights); returns the module it saves."""
    from plausibility.scorers.trained import NETS as ALLOWED

    torch.manual_seed(0)
    hparams = {
        "net": {"class_path": class_path, "init_args": init_args},
        "vocabulary": NOUNS,
        "abstractions": abstractions,
        "min_depth": 4,
        "wsd": "mfs",
        "eval_batch_size": 16,
    }
    with warnings.catch_warnings():  # a fit saves the net's config, not the module; so does this
        warnings.filterwarnings("ignore", message="Attribute 'net' is an instance of `nn.Module`")
        system_args = {name: value for name, value in hparams.items() if name != "net"}
        module = PlausibilityModule(ALLOWED[class_path](**init_args), **system_args)
    state = {f"net.{name}": value for name, value in module.net.state_dict().items()}
    torch.save({"hyper_parameters": hparams, "state_dict": state, "global_step": 0}, path)
    return module.eval()


class Saved(NamedTuple):
    path: Path
    scores: np.ndarray  # the saved module's own scores of TRIPLES

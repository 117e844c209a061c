"""`load_scorer`: any TripleScorer from one SPEC string, as the CLI and the Python API name them.

A SPEC is a registered name, optionally with an argument after the first colon (`ngram`,
`ngram:triples.parquet`, `zero-shot:gpt2`, `conceptmax:<SPEC>`, `calibrated:<SPEC>`), the path of a trained checkpoint
(`*.ckpt`), or a model folder written by `plausibility export` (one holding `model.safetensors`).
"""

import importlib
from pathlib import Path

from plausibility.errors import ResourceMissingError, UnknownNameError
from plausibility.scoring.protocols import TripleScorer

# name -> "module:function"; the function takes the argument after the colon (or None) and returns a
# TripleScorer. Imported only when asked for, so naming one scorer never loads another's dependencies.
FACTORIES: dict[str, str] = {
    "ngram": "plausibility.baselines.ngram:load_ngram",
    "resnik": "plausibility.baselines.resnik:load_resnik",
    "glove-mlp": "plausibility.baselines.glove_mlp:load_glove_mlp",
    "zero-shot": "plausibility.baselines.zero_shot:load_zero_shot",
    "conceptmax": "plausibility.scoring.concept_max:load_concept_max",
    "calibrated": "plausibility.scoring.calibration:load_calibrated",
}
# What `plausibility score` and `load_scorer()` use when no SPEC is given: needs no training, runs offline.
DEFAULT_SCORER = "zero-shot"
CHECKPOINT_FACTORY = "plausibility.models.checkpoint:load_checkpoint_scorer"
FOLDER_FACTORY = "plausibility.models.model_folder:load_folder_scorer"


def _call(target: str, argument: str | None) -> TripleScorer:
    module, function = target.split(":")
    return getattr(importlib.import_module(module), function)(argument)


def load_scorer(spec: str) -> TripleScorer:
    """Build the scorer a SPEC names; unknown names fail with the list of known ones."""
    spec = spec.strip()
    # `glove-mlp:<path>.ckpt`, `conceptmax:<path>.ckpt` and `calibrated:<path>.ckpt` name a factory, not a checkpoint
    if spec.endswith(".ckpt") and spec.partition(":")[0] not in FACTORIES:
        if not Path(spec).is_file():
            raise ResourceMissingError(f"{spec}: no such checkpoint; train one with `plausibility fit`")
        return _call(CHECKPOINT_FACTORY, spec)
    name, colon, argument = spec.partition(":")
    # an exported folder holds model.safetensors (the name `plausibility.models.model_folder` writes)
    if Path(spec).is_dir() and ((Path(spec) / "model.safetensors").is_file() or name not in FACTORIES):
        return _call(FOLDER_FACTORY, spec)
    if name not in FACTORIES:
        raise UnknownNameError("model", spec, [*FACTORIES, "<path>.ckpt", "<exported folder>"])
    return _call(FACTORIES[name], argument if colon else None)

"""An exported model folder, read without unpickling: fp16 safetensors weights, YAML config, JSON lexicon.

`plausibility export` writes the folder (`plausibility.models.export`); this module is its format and its
reader, and `plausibility.scorers.trained` builds the model from what it reads. Nothing in a folder can run
code when loaded: weights are safetensors, config and lexicon are YAML and JSON, the net class comes from
the loader's allow-list, and a folder holding a pickle file (a checkpoint, a `torch.save` file) is refused
outright rather than silently ignored.
"""

import json
from pathlib import Path

import yaml

from plausibility.errors import DataFormatError, ResourceMissingError

FORMAT = "plausibility-model/1"
WEIGHTS = "model.safetensors"
CONFIG = "config.yaml"
LEXICON = "lexicon.json"
EXTRA_STATE = "extra_state.json"  # a net's non-tensor state (GloVe+MLP's vocabulary), when it has one
CALIBRATION = "calibration.json"
CARD = "MODEL_CARD.md"
EVALUATION = "evaluation.json"  # AUC of the exported weights on each half, with its interval
# Formats that unpickle when read: a model folder holds none of them.
PICKLE_SUFFIXES = (".ckpt", ".pt", ".pth", ".pkl", ".pickle", ".bin")
# The module's lexicon arguments live in lexicon.json, not in config.yaml.
LEXICON_ARGS = ("vocabulary", "min_depth", "wsd")


def is_model_folder(path: str | Path) -> bool:
    """Whether `path` is a folder holding exported weights (what a SPEC that is a folder must be)."""
    return Path(path).is_dir() and (Path(path) / WEIGHTS).is_file()


def _read_yaml(path: Path) -> dict:
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise DataFormatError(
            f"{path}: not readable YAML ({str(error).splitlines()[0]}); export the model again"
        ) from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DataFormatError(f"{path}: not a {FORMAT} config; export the model again with `plausibility export`")
    return document


def _read_lexicon(path: Path) -> dict:
    try:
        lexicon = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise DataFormatError(f"{path}: not readable JSON ({error}); export the model again") from error
    if not isinstance(lexicon, dict) or set(lexicon) != set(LEXICON_ARGS):
        raise DataFormatError(f"{path}: expected the keys {', '.join(LEXICON_ARGS)}; export the model again")
    return lexicon


def read_model_folder(folder: str | Path) -> tuple[dict, dict[str, object]]:
    """The module's hyperparameters (config and lexicon joined) and the net's state: weights as stored (fp16),
    and its extra state when the net has one."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    root = Path(folder)
    if not is_model_folder(root):
        raise ResourceMissingError(f"{folder}: no {WEIGHTS} here; export a model with `plausibility export`")
    pickles = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.suffix.lower() in PICKLE_SUFFIXES)
    if pickles:
        raise DataFormatError(
            f"{folder}: holds pickle file {pickles[0]}, which could run code when read; remove it or export afresh"
        )
    for name in (CONFIG, LEXICON):
        if not (root / name).is_file():
            raise ResourceMissingError(f"{folder}: no {name}; export the model again with `plausibility export`")
    config = _read_yaml(root / CONFIG)
    model = config.get("model")
    if not isinstance(model, dict):
        raise DataFormatError(f"{root / CONFIG}: no `model` section; export the model again")
    try:
        weights = load_file(root / WEIGHTS, device="cpu")
    except (SafetensorError, OSError) as error:
        raise DataFormatError(f"{root / WEIGHTS}: not readable safetensors ({error}); export it again") from error
    state: dict[str, object] = dict(weights)
    if (root / EXTRA_STATE).is_file():
        try:
            state.update(json.loads((root / EXTRA_STATE).read_text(encoding="utf-8")))
        except (OSError, ValueError) as error:
            raise DataFormatError(
                f"{root / EXTRA_STATE}: not readable JSON ({error}); export the model again"
            ) from error
    return {**model, **_read_lexicon(root / LEXICON)}, state

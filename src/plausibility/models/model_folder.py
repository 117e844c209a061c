"""A model's folder, the one place that knows its file names: a trained net's fp16 safetensors weights, YAML
config and JSON lexicon (saved and loaded here), and beside them what export measured: the calibration, the
figures and the card, a `README.md` whose YAML metadata block model hubs read.

Nothing in a folder can run code when loaded: weights are safetensors, config and lexicon are YAML and JSON,
the net class comes from the loader's allow-list, and a folder holding a pickle file (a checkpoint, a
`torch.save` file) is refused outright rather than silently ignored.
"""

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import yaml

from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.version import __version__

FORMAT = "plausibility-model/1"
WEIGHTS = "model.safetensors"
CONFIG = "config.yaml"
LEXICON = "lexicon.json"
EXTRA_STATE = "extra_state.json"  # a net's non-tensor state (GloVe+MLP's vocabulary), when it has one
CALIBRATION = "calibration.json"
CARD = "README.md"
OLD_CARD = "MODEL_CARD.md"  # the card's name in folders written before 0.3
EVALUATION = "evaluation.json"  # AUC of the exported weights on each half, with its interval
# Formats that unpickle when read: a model folder holds none of them.
PICKLE_SUFFIXES = (".ckpt", ".pt", ".pth", ".pkl", ".pickle", ".bin")
# The module's lexicon arguments live in lexicon.json, not in config.yaml.
LEXICON_ARGS = ("vocabulary", "min_depth", "wsd")
# Hyperparameters that only `plausibility fit` uses to build the module (not model settings).
_INTERNAL_ARGS = ("_instantiator",)


@dataclass(frozen=True)
class TrainedModel:
    """A trained model as its folder is written from it.

    Attributes:
        source: the checkpoint or folder it was read from.
        hparams: the module's saved hyperparameters (`net`, `abstractions`, the lexicon's settings, ...).
        net_state: the net's weights, and its extra state where it has one.
        training: how it was trained: checkpoint, global step, epoch, batch size, pairs, training seconds.
        summary: what it is in one line, where an exported folder says so (exported anew, it keeps it).
    """

    source: Path
    hparams: dict
    net_state: dict[str, object]
    training: dict[str, object]
    summary: str | None = None


class ModelFolder:
    """A model's folder on disk: where each of its files is, and a trained net's `save` and `load`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"ModelFolder({str(self.path)!r})"

    @property
    def holds_net(self) -> bool:
        """Whether the folder holds a trained net's weights (what a SPEC that is a folder must be)."""
        return self.path.is_dir() and (self.path / WEIGHTS).is_file()

    @property
    def card(self) -> Path:
        """Its card: `README.md`, or `MODEL_CARD.md` in a folder an earlier version wrote."""
        old = self.path / OLD_CARD
        return old if old.is_file() and not (self.path / CARD).is_file() else self.path / CARD

    def config(self) -> dict:
        """Its `config.yaml`."""
        return _read_yaml(self.path / CONFIG)

    def load(self) -> tuple[dict, dict[str, object]]:
        """The net's hyperparameters (config and lexicon joined) and its state: weights as stored (fp16), and
        its extra state when the net has one."""
        from safetensors import SafetensorError
        from safetensors.torch import load_file

        root = self.path
        if not self.holds_net:
            raise ResourceMissingError(f"{root}: no {WEIGHTS} here; export a model with `plausibility export`")
        pickles = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.suffix.lower() in PICKLE_SUFFIXES)
        if pickles:
            raise DataFormatError(
                f"{root}: holds pickle file {pickles[0]}, which could run code when read; remove it or export afresh"
            )
        for name in (CONFIG, LEXICON):
            if not (root / name).is_file():
                raise ResourceMissingError(f"{root}: no {name}; export the model again with `plausibility export`")
        model = self.config().get("model")
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

    def save(self, model: TrainedModel, identity: dict[str, str]) -> dict:
        """Write the weights (fp16), `config.yaml` and `lexicon.json` of `model`; returns the config.

        A model read from an exported folder keeps its weights file byte for byte.

        Args:
            identity: the model's `name`, `version` and one-line `summary`, recorded at the top of its config.
        """
        source = ModelFolder(model.source)
        if source.holds_net:
            for name in (WEIGHTS, EXTRA_STATE):
                if (source.path / name).is_file():
                    shutil.copyfile(source.path / name, self.path / name)
        else:
            _write_net_state(model.net_state, self.path)
        hparams = model.hparams
        settings = {k: v for k, v in hparams.items() if k not in (*LEXICON_ARGS, *_INTERNAL_ARGS)}
        config = {"format": FORMAT, **identity, "plausibility_version": __version__, "model": settings}
        config["training"] = model.training
        (self.path / CONFIG).write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        vocabulary = hparams.get("vocabulary")
        lexicon = {
            "vocabulary": None if vocabulary is None else list(vocabulary),
            "min_depth": hparams.get("min_depth", 4),
            "wsd": hparams.get("wsd", "mfs"),
        }
        (self.path / LEXICON).write_text(json.dumps(lexicon, indent=1) + "\n", encoding="utf-8")
        return config


def _write_net_state(net_state: dict[str, object], folder: Path) -> None:
    """Tensors into fp16 safetensors; a net's extra state (GloVe+MLP's vocabulary) into JSON beside them."""
    import torch
    from safetensors.torch import save_file

    tensors = {
        name: (value.to(torch.float16) if value.is_floating_point() else value).contiguous()
        for name, value in net_state.items()
        if isinstance(value, torch.Tensor)
    }
    save_file(tensors, folder / WEIGHTS, metadata={"format": "pt", "plausibility": FORMAT})
    extra = {name: value for name, value in net_state.items() if not isinstance(value, torch.Tensor)}
    if extra:
        try:
            text = json.dumps(extra)
        except TypeError as error:
            raise DataFormatError(
                f"the net's extra state cannot be written as JSON ({error}); it cannot be exported"
            ) from error
        (folder / EXTRA_STATE).write_text(text, encoding="utf-8")


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

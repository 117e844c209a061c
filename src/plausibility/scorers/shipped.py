"""The models shipped in the package, `data/models/<name>/`: a trained net's folder, or an ensemble of shipped parts.

A net's folder is what `plausibility export` writes (`plausibility.models.model_folder`). An ensemble's folder
holds a `config.yaml` naming its SPEC (members and weights), the calibration of the whole, its measured
figures and its card. Every shipped folder's `config.yaml` names the model and its version; `default` is the
model `load_scorer()` and `plausibility score` use when no SPEC is given.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import yaml

from plausibility.errors import DataFormatError, ResourceMissingError, UnknownNameError
from plausibility.models.model_folder import CONFIG, EVALUATION, ModelFolder
from plausibility.resources.paths import data_dir, shipped_models

DEFAULT_MODEL = "default"
ENSEMBLE_FORMAT = "plausibility-ensemble/1"
STACK_FORMAT = "plausibility-stack/1"


@dataclass(frozen=True)
class ShippedModel:
    """A shipped model as `plausibility models` lists it.

    Attributes:
        spec: for an ensemble, the SPEC it is built from; for a stack, its features joined by `+`; None for a
            trained net.
        summary: what it is, in one line.
        test_auc: `{"pep3k": auc, "20q": auc}` on the test halves, from its measured figures.
        size: bytes of its folder and of every shipped model it loads (an ensemble's members' folders).
    """

    name: str
    version: str
    summary: str
    spec: str | None
    test_auc: dict[str, float]
    size: int
    folder: Path


def model_folder(name: str) -> Path:
    """The folder of a shipped model; a name that is not shipped fails with the ones that are."""
    folder = data_dir() / "models" / name
    if not (folder / CONFIG).is_file():
        raise UnknownNameError("shipped model", name, shipped_models())
    return folder


def _config(folder: Path) -> dict:
    try:
        config = yaml.safe_load((folder / CONFIG).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise DataFormatError(f"{folder / CONFIG}: not readable YAML ({str(error).splitlines()[0]})") from error
    if not isinstance(config, dict):
        raise DataFormatError(f"{folder / CONFIG}: not a model config; reinstall plausibility")
    return config


def _config_in_format(folder: Path, format: str) -> dict | None:
    """A folder's config if it is written in `format`; None for a folder with none, or in another format."""
    if not (folder / CONFIG).is_file():
        return None
    config = _config(folder)
    return config if config.get("format") == format else None


def ensemble_spec(folder: Path) -> str | None:
    """The SPEC of an ensemble's folder (shipped or exported); None for a trained net's folder, or any other."""
    if (config := _config_in_format(folder, ENSEMBLE_FORMAT)) is None:
        return None
    if not isinstance(config.get("spec"), str):
        raise DataFormatError(f"{folder / CONFIG}: an ensemble's config needs its spec; reinstall plausibility")
    return config["spec"]


def stack_config(folder: Path) -> dict | None:
    """The config of a stacked model's folder (`plausibility.scorers.stack_folder`); None for any other folder."""
    if (config := _config_in_format(folder, STACK_FORMAT)) is None:
        return None
    if not isinstance(config.get("members"), list) or not isinstance(config.get("features"), list):
        raise DataFormatError(f"{folder / CONFIG}: a stack's config needs its members and features; reinstall it")
    return config


def member_specs(folder: Path) -> list[str]:
    """The SPECs an ensemble's or a stack's folder loads as its members; [] for a net's folder."""
    if (written := ensemble_spec(folder)) is not None:
        from plausibility.scorers.spec import parse_spec

        return [str(member) for member in parse_spec(written).members]
    config = stack_config(folder)
    return [str(member) for member in config["members"]] if config is not None else []


def shipped_model(name: str) -> ShippedModel:
    """What a shipped model is: its name, version, one-line summary, test AUC and size."""
    folder = model_folder(name)
    config = _config(folder)
    figures = json.loads((folder / EVALUATION).read_text(encoding="utf-8")) if (folder / EVALUATION).is_file() else {}
    test_auc = {key.split("/")[0]: value["estimate"] for key, value in figures.items() if key.endswith("/test")}
    stack = stack_config(folder)
    return ShippedModel(
        name,
        str(config.get("version", "unversioned")),
        str(config.get("summary", "")),
        ensemble_spec(folder) if stack is None else "stack:" + "+".join(f["feature"] for f in stack["features"]),
        test_auc,
        shipped_bytes(name),
        folder,
    )


def shipped_bytes(*specs: str) -> int:
    """Bytes of the folders of every shipped model the SPECs load (an ensemble's or a stack's members' folders),
    each folder counted once."""
    folders = sorted({model_folder(name) for spec in specs for name in shipped_versions(spec)})
    return sum(path.stat().st_size for folder in folders for path in folder.rglob("*") if path.is_file())


def read_card(name: str) -> str:
    """A shipped model's card."""
    card = ModelFolder(model_folder(name)).card
    if not card.is_file():
        raise ResourceMissingError(f"{name}: its folder has no {card.name}; reinstall plausibility")
    text = card.read_text(encoding="utf-8")
    if text.startswith("---\n"):  # the metadata block for model hubs: the card itself follows it
        text = text.split("\n---\n", 1)[1].lstrip("\n")
    return text


def shipped_versions(spec: str) -> dict[str, str]:
    """The version of every shipped model a SPEC names, however deep (a shipped ensemble's members too).

    Result files record it beside the package's version, so a figure names the exact models it measured.
    """
    from plausibility.scorers.spec import ScorerSpec, parse_spec

    versions: dict[str, str] = {}

    def visit(part: ScorerSpec) -> None:
        if part.inner is not None:
            visit(part.inner)
        for member in part.members:
            visit(member)
        if part.kind == "shipped" and part.source and part.source not in versions:
            folder = model_folder(part.source)
            versions[part.source] = str(_config(folder).get("version", "unversioned"))
            for member in member_specs(folder):
                visit(parse_spec(member))

    visit(parse_spec(spec))
    return dict(sorted(versions.items()))


def describe_model(spec: str) -> str:
    """A SPEC as results name it: a shipped model with its version (`default 1.0`), any other with the versions
    of the shipped models it reads (`ensemble:roberta+zero-shot (roberta 1.1)`)."""
    versions = shipped_versions(spec)
    if spec in versions:
        return f"{spec} {versions[spec]}"
    return f"{spec} ({', '.join(f'{name} {version}' for name, version in versions.items())})" if versions else spec

"""The package's folders: its vendored data and configs, the cache, and folders built once into it."""

import importlib.util
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from plausibility.atomic import atomic_path
from plausibility.errors import ResourceMissingError


def cache_dir() -> Path:
    """The folder for converted models and precomputed tables (`PLAUSIBILITY_CACHE` overrides it)."""
    if override := os.environ.get("PLAUSIBILITY_CACHE"):
        return Path(override)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "plausibility"


def data_dir() -> Path:
    """The vendored data folder: `PLAUSIBILITY_DATA`, the source checkout's `data/`, or the installed copy."""
    if override := os.environ.get("PLAUSIBILITY_DATA"):
        return Path(override)
    package = Path(__file__).resolve().parents[1]
    for candidate in (package.parents[1] / "data", package / "_data"):
        if (candidate / "PROVENANCE.md").is_file():
            return candidate
    raise ResourceMissingError("vendored data folder not found; set PLAUSIBILITY_DATA to the project's data/ folder")


def resolve_data_path(path: str) -> Path:
    """`path` itself if it exists, else the same path inside the vendored data folder."""
    given = Path(path)
    resolved = given if given.exists() or given.is_absolute() else data_dir() / given
    if not resolved.is_file():
        raise ResourceMissingError(f"{path}: no such file; build the training pairs first or pass --data.pairs")
    return resolved


def portable_path(path: str | Path) -> str:
    """A path as a shipped file may record it, with no folder of the machine it was made on: `data/...` for a file
    of the vendored data folder, relative to the working folder for one inside it, else as given."""
    resolved = Path(path).resolve()
    for root, prefix in ((data_dir().resolve(), "data/"), (Path.cwd().resolve(), "")):
        if resolved.is_relative_to(root):
            return prefix + resolved.relative_to(root).as_posix()
    return str(path)


def recorded_path(text: str) -> Path:
    """The file a `portable_path` names here: `data/...` inside the vendored data folder when not found as
    given (an installed package runs from anywhere)."""
    given = Path(text)
    if not given.exists() and text.startswith("data/"):
        return data_dir() / text.removeprefix("data/")
    return given


def configs_dir() -> Path:
    """The shipped YAML configs: the source checkout's `configs/`, or the copy an installed wheel carries."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package.parents[1] / "configs", package / "_configs"):
        if candidate.is_dir():
            return candidate
    raise ResourceMissingError("configs folder not found; reinstall plausibility")


def shipped_model_configs() -> list[str]:
    """The names of the model configs shipped with the package (`concept_max`, `roberta-paper`, ...)."""
    return sorted(path.stem for path in (configs_dir() / "models").glob("*.yaml"))


def package_folder(module: str) -> Path | None:
    """A package's folder without importing it (some model packages import heavy, unneeded modules)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def cached_folder(target: Path, fill: Callable[[Path], None], ready: Callable[[Path], bool]) -> Path:
    """`target`, built by `fill` unless `ready` says it is already built: once, whoever asks first.

    Two first runs on a fresh cache would both build it, and the second could not rename its copy onto the
    first's; an inter-process lock beside the folder makes the second wait and then find it ready. The
    build goes through a hidden partial folder (`atomic_path`), so a crash leaves no half folder.
    """
    from filelock import FileLock

    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(target.parent / f".{target.name}.lock"):
        if ready(target):
            return target
        if target.exists():  # an unfinished folder written by hand or by an older version: rebuilt
            shutil.rmtree(target)
        with atomic_path(target, folder=True) as staging:
            fill(staging)
    return target


def bundled_pairs() -> Path:
    """The bundled training pairs (attested events and their pseudo-negatives)."""
    return data_dir() / "training" / "pairs.parquet"


def bundled_triples() -> Path:
    """The bundled training triples with their counts."""
    return data_dir() / "training" / "triples.parquet"


def shipped_models() -> list[str]:
    """The names of the models shipped under `data/models/` (each a folder holding a `config.yaml`).

    A hidden folder is not one: an export being written (`.NAME....partial`), say.
    """
    folder = data_dir() / "models"
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".") and (p / "config.yaml").is_file())

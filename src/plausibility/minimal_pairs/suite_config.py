"""Suite definitions: a YAML file per suite (over a shared template) read into a frozen record."""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

import yaml

from plausibility.errors import PlausibilityError, UnknownNameError
from plausibility.minimal_pairs.readers import get_reader
from plausibility.minimal_pairs.registry import get_metric
from plausibility.resources.paths import configs_dir, data_dir

ScoreKind = Literal["conditional", "text", "slor", "conditional_mean"]
ComparisonKind = Literal["test", "statistic"]

SUITES_DIR = configs_dir() / "suites"
TEMPLATE = "_template.yaml"

_SUITE_KEYS = {
    "include", "name", "version", "description", "reader", "reader_options", "data", "score", "metric",
    "metrics", "conditions", "comparisons", "add_comparisons", "group_by", "limit_by", "human",
    "mean_score_by", "bootstrap", "experiments", "default_experiment", "per_group",
}  # fmt: skip


class SuiteConfigError(PlausibilityError):
    """A suite's YAML is malformed or asks for something that does not exist."""


@dataclass(frozen=True)
class Condition:
    """A condition of a comparison: the role of the text it scores and, for control metrics, its control."""

    text: str
    control: str | None = None


@dataclass(frozen=True)
class Comparison:
    """`good > bad` on every item; `kind: statistic` marks a preference with no right answer (distance)."""

    name: str
    good: str
    bad: str
    labels: Mapping[str, str]
    human: str | None = None
    kind: ComparisonKind = "test"


@dataclass(frozen=True)
class HumanReference:
    """Where human accuracies come from: a CSV of per-item binary outcomes (`correct` 0/1)."""

    path: Path
    comparison_column: str
    correct_column: str
    group_label: str | None = None
    group_column: str | None = None


@dataclass(frozen=True)
class SuiteConfig:
    """One experiment of one suite, resolved from its YAML, the template and the experiment's overrides."""

    name: str
    experiment: str
    version: int
    description: str
    reader: str
    reader_options: Mapping[str, object]
    data: Path | None
    score: ScoreKind
    metric: str
    metrics: tuple[str, ...]
    conditions: Mapping[str, Condition]
    comparisons: tuple[Comparison, ...]
    group_by: tuple[tuple[str, ...], ...]
    limit_by: tuple[str, ...]
    per_group: bool
    human: HumanReference | None
    mean_score_by: str | None
    n_resamples: int
    confidence: float
    resolved: Mapping[str, object]

    def condition(self, name: str) -> Condition:
        """The declared condition `name`, or by default the role of that name with no control."""
        return self.conditions.get(name, Condition(name))


def available_suites(folder: Path = SUITES_DIR) -> list[str]:
    """Names of the suites defined in `folder` (every YAML except the template)."""
    return sorted(path.stem for path in folder.glob("*.yaml") if path.name != TEMPLATE)


def experiments(name: str, folder: Path = SUITES_DIR) -> list[str | None]:
    """The experiments of a built-in suite (`[None]` for a suite without any)."""
    if name not in available_suites(folder):
        raise UnknownNameError("suite", name, available_suites(folder))
    return list(_read_yaml(folder / f"{name}.yaml").get("experiments") or [None])


def _read_yaml(path: Path) -> dict:
    try:
        content = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise SuiteConfigError(f"{path}: not valid YAML ({error}); fix the file") from None
    if not isinstance(content, dict):
        raise SuiteConfigError(f"{path}: expected a mapping of suite settings at the top level")
    return content


def _resolve(path: Path, experiment: str | None) -> tuple[dict, str]:
    """Template values, overridden by the suite's, overridden by the chosen experiment's."""
    suite = _read_yaml(path)
    unknown = set(suite) - _SUITE_KEYS
    if unknown:
        raise SuiteConfigError(f"{path}: unknown keys {sorted(unknown)}; known: {', '.join(sorted(_SUITE_KEYS))}")
    merged = _read_yaml(path.parent / suite["include"]) if "include" in suite else {}
    merged.update({key: value for key, value in suite.items() if key not in ("include", "experiments")})
    experiments = suite.get("experiments") or {}
    chosen = experiment or suite.get("default_experiment") or (next(iter(experiments)) if experiments else "default")
    if experiments or experiment is not None:
        if chosen not in experiments:
            raise UnknownNameError(f"experiment of suite {merged.get('name', path.stem)}", chosen, tuple(experiments))
        overrides = experiments[chosen] or {}
        unknown = set(overrides) - _SUITE_KEYS
        if unknown:
            raise SuiteConfigError(f"{path}: experiment {chosen!r} has unknown keys {sorted(unknown)}")
        merged.update(overrides)
    merged.pop("default_experiment", None)
    return merged, chosen


def _require(config: Mapping, key: str, path: Path) -> object:
    if key not in config or config[key] is None:
        raise SuiteConfigError(f"{path}: missing key {key!r}; add it to the suite or its template")
    return config[key]


def _comparison(entry: Mapping, path: Path) -> Comparison:
    if not isinstance(entry, Mapping) or not {"name", "good", "bad"} <= entry.keys():
        raise SuiteConfigError(f"{path}: each comparison needs name, good and bad; got {entry!r}")
    kind = entry.get("kind", "test")
    if kind not in get_args(ComparisonKind):
        raise SuiteConfigError(f"{path}: comparison {entry['name']!r} has kind {kind!r}; use test or statistic")
    labels = {key: str(value) for key, value in (entry.get("labels") or {}).items()}
    return Comparison(str(entry["name"]), str(entry["good"]), str(entry["bad"]), labels, entry.get("human"), kind)


def _data_path(value: object) -> Path | None:
    if value is None:
        return None
    path = Path(str(value))
    return path if path.is_absolute() else data_dir() / path


def load_suite(
    name: str,
    experiment: str | None = None,
    metric: str | None = None,
    data: Path | None = None,
    folder: Path = SUITES_DIR,
) -> SuiteConfig:
    """Read suite `name` (a name in `folder` or a path to a YAML file) for one experiment.

    Args:
        metric: overrides the suite's default comparison metric; it must be one the suite allows.
        data: overrides the suite's data file or folder (required by a suite without one).
    """
    path = Path(name) if name.endswith((".yaml", ".yml")) else folder / f"{name}.yaml"
    if not path.is_file() or path.name == TEMPLATE:
        if name.endswith((".yaml", ".yml")):
            raise SuiteConfigError(f"{path}: no such suite file; give a suite YAML or one of the built-in names")
        raise UnknownNameError("suite", name, available_suites(folder))
    config, chosen = _resolve(path, experiment)
    suite_name = str(_require(config, "name", path))
    get_reader(str(_require(config, "reader", path)))
    score = config.get("score", "conditional")
    if score not in get_args(ScoreKind):
        raise SuiteConfigError(f"{path}: score {score!r} is not one of {', '.join(get_args(ScoreKind))}")
    allowed = tuple(config.get("metrics") or (config.get("metric", "direct"),))
    chosen_metric = metric or str(_require(config, "metric", path))
    for known in (*allowed, chosen_metric):
        get_metric(known)
    if chosen_metric not in allowed:
        raise SuiteConfigError(
            f"metric {chosen_metric!r} is not available for suite {suite_name}/{chosen}; "
            f"available: {', '.join(allowed)}"
        )
    conditions = {
        str(key): Condition(str(value["text"]), value.get("control"))
        for key, value in (config.get("conditions") or {}).items()
    }
    comparisons = tuple(
        _comparison(entry, path)
        for entry in [*(config.get("comparisons") or []), *(config.get("add_comparisons") or [])]
    )
    if not comparisons:
        raise SuiteConfigError(f"{path}: suite {suite_name}/{chosen} declares no comparisons")
    if get_metric(chosen_metric).needs_control:
        for comparison in comparisons:
            for side in (comparison.good, comparison.bad):
                if conditions.get(side, Condition(side)).control is None:
                    raise SuiteConfigError(
                        f"metric {chosen_metric!r} needs a control text for condition {side!r} of suite "
                        f"{suite_name}/{chosen}; declare one under `conditions` or use --metric direct"
                    )
    human = config.get("human")
    bootstrap = config.get("bootstrap") or {}
    config["metric"] = chosen_metric
    if data is not None:
        config["data"] = str(data)
    return SuiteConfig(
        name=suite_name,
        experiment=chosen,
        version=int(_require(config, "version", path)),
        description=str(config.get("description", "")),
        reader=str(config["reader"]),
        reader_options=dict(config.get("reader_options") or {}),
        data=Path(data) if data is not None else _data_path(config.get("data")),
        score=score,
        metric=chosen_metric,
        metrics=allowed,
        conditions=conditions,
        comparisons=comparisons,
        group_by=tuple(tuple(group) for group in config.get("group_by") or ()),
        limit_by=tuple(config.get("limit_by") or ()),
        per_group=bool(config.get("per_group", False)),
        human=HumanReference(
            path=_data_path(human["path"]),
            comparison_column=human["comparison_column"],
            correct_column=human["correct_column"],
            group_label=human.get("group_label"),
            group_column=human.get("group_column"),
        )
        if human
        else None,
        mean_score_by=config.get("mean_score_by"),
        n_resamples=int(bootstrap.get("n_resamples", 2000)),
        confidence=float(bootstrap.get("confidence", 0.95)),
        resolved=config,
    )

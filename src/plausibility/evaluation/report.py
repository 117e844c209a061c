"""The thesis's two results tables in kind, for many scorers: AUC (Table 6.4) and CCΔ / LER (Table 6.5)."""

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import yaml

from plausibility.atomic import atomic_write_text
from plausibility.errors import PlausibilityError
from plausibility.evaluation.auc import evaluate_auc
from plausibility.evaluation.datasets import DATASETS, SPLITS, load_plausibility_set
from plausibility.evaluation.grids import measure_consistency
from plausibility.evaluation.intervals import AucInterval, auc_interval
from plausibility.lexicon.training_lexicon import lexicon_of
from plausibility.scoring.protocols import TripleScorer

DATASET_TITLES = {"pep3k": "Pep-3k", "20q": "20Q"}


@dataclass(frozen=True)
class ThesisFigures:
    """One model's row in the thesis: test AUC (Table 6.4) and (CCΔ, LER) (Table 6.5), per dataset."""

    name: str
    auc: dict[str, float]
    consistency: dict[str, tuple[float, float]]


THESIS = {
    figures.name: figures
    for figures in (
        ThesisFigures("n-gram", {"pep3k": 0.51, "20q": 0.52}, {"pep3k": (0.06, 0.50), "20q": (0.07, 0.50)}),
        ThesisFigures("GloVe+MLP", {"pep3k": 0.55, "20q": 0.52}, {"pep3k": (0.03, 0.61), "20q": (0.03, 0.49)}),
        ThesisFigures("RoBERTa zero-shot", {"pep3k": 0.56, "20q": 0.57}, {"pep3k": (0.13, 0.70), "20q": (0.12, 0.65)}),
        ThesisFigures("RoBERTa", {"pep3k": 0.64, "20q": 0.67}, {"pep3k": (0.09, 0.52), "20q": (0.08, 0.51)}),
        ThesisFigures("ConceptInject", {"pep3k": 0.64, "20q": 0.66}, {"pep3k": (0.08, 0.52), "20q": (0.07, 0.51)}),
        ThesisFigures("ConceptMax", {"pep3k": 0.67, "20q": 0.74}, {"pep3k": (0.02, 0.00), "20q": (0.02, 0.00)}),
    )
}
# Our SPEC names and run-folder names, lowercased with punctuation dropped, for each thesis row. The thesis's
# zero-shot model is a masked RoBERTa; any `zero-shot` SPEC is its counterpart here ("in kind").
THESIS_ALIASES = {
    "ngram": "n-gram",
    "glovemlp": "GloVe+MLP",
    "zeroshot": "RoBERTa zero-shot",
    "roberta": "RoBERTa",
    "conceptinject": "ConceptInject",
    "conceptmax": "ConceptMax",
}


def thesis_figures(label: str) -> ThesisFigures | None:
    """The thesis row a model label stands for, by its name before any `:`; None if the thesis has none.

    `conceptmax:<SPEC>` wraps another scorer, which the thesis never did, so it has no thesis row.
    """
    name, colon, _ = label.partition(":")
    key = re.sub(r"[^a-z0-9]", "", name.lower())
    if colon and key == "conceptmax":
        return None
    return THESIS.get(THESIS_ALIASES.get(key, ""))


@dataclass(frozen=True)
class ModelRequest:
    """A model to report: its SPEC and the label its row carries."""

    label: str
    spec: str


def parse_model(text: str) -> ModelRequest:
    """`LABEL=SPEC` or a bare `SPEC`, labelled by itself or, for a checkpoint, by its run folder.

    A label holds no `/` or `:`, so checkpoint names such as `epoch=1-step=500.ckpt` stay whole SPECs.
    """
    label, equals, spec = text.partition("=")
    if equals and not re.search(r"[/:\\]", label) and not Path(text).exists():
        if not (label.strip() and spec.strip()):
            raise PlausibilityError(f"--model {text!r}: give LABEL=SPEC with both parts, or a bare SPEC")
        return ModelRequest(label.strip(), spec.strip())
    spec = text.strip()
    path = Path(spec.partition(":")[2] if spec.startswith("glove-mlp:") else spec)
    if path.suffix == ".ckpt":
        # runs/<name>/checkpoints/<file>.ckpt is what `plausibility fit` writes
        folder = path.parent.parent if path.parent.name == "checkpoints" else path.parent
        return ModelRequest(folder.name or path.stem, spec)
    return ModelRequest(spec, spec)


@dataclass(frozen=True)
class ReportSettings:
    """How the report was computed; saved beside the results.

    Attributes:
        consistency_events: events drawn (seeded, without replacement) from each dataset's consistency
            split; None for all of them, as in the thesis.
        wsd, min_depth: overrides of each scorer's own lexicon (`lexicon_of`); None keeps its own.
        dtype: the precision the scorers were loaded in; it changes scores, so saved rows are kept per dtype.
    """

    seed: int = 0
    n_resamples: int = 1000
    confidence: float = 0.95
    consistency_split: str = "test"
    consistency_events: int | None = 200
    wsd: str | None = None
    min_depth: int | None = None
    batch_size: int = 1024
    dtype: str = "float32"


@dataclass(frozen=True)
class ConsistencyFigures:
    """CCΔ (on probabilities and scale-free) and LER of one dataset, with what they pool (lower is better).

    `lexicon` says which hierarchy and WSD the grids were laid out in (`TrainingLexicon.describe`).
    """

    ccd: float
    ccd_scale_free: float
    ler: float
    events: int
    windows: int
    lexicon: dict[str, object]


@dataclass(frozen=True)
class ModelResult:
    """One model's row of both tables: AUC per dataset and split, CCΔ / LER per dataset."""

    label: str
    spec: str
    probability_mapping: str
    auc: dict[str, dict[str, AucInterval]]
    consistency: dict[str, ConsistencyFigures]

    @property
    def thesis(self) -> ThesisFigures | None:
        return thesis_figures(self.label)


@dataclass(frozen=True)
class Report:
    """Every evaluated model, and the requested ones that could not be loaded (label -> reason)."""

    models: list[ModelResult]
    settings: ReportSettings
    skipped: dict[str, str] = field(default_factory=dict)


def consistency_sample(n_events: int, settings: ReportSettings, dataset: str) -> list[int]:
    """Indices of the events whose grids are measured: all, or a seeded sample in set order."""
    if settings.consistency_events is None or settings.consistency_events >= n_events:
        return list(range(n_events))
    # one generator per dataset, so adding a model or a dataset never changes another's sample
    rng = np.random.default_rng([settings.seed, DATASETS.index(dataset)])
    return sorted(rng.choice(n_events, size=settings.consistency_events, replace=False).tolist())


def evaluate_scorer(
    request: ModelRequest, scorer: TripleScorer, settings: ReportSettings, consistency: bool = True
) -> ModelResult:
    """AUC with bootstrap intervals on every half of Pep-3k and 20Q; CCΔ / LER too with `consistency`.

    Grids are laid out in the scorer's own lexicon (`lexicon_of`, with the settings' overrides), the same
    rule `plausibility consistency` follows.
    """
    auc: dict[str, dict[str, AucInterval]] = {}
    for half in evaluate_auc(scorer, DATASETS, SPLITS):
        # seeded per half: each interval is reproducible whatever else the report holds
        rng = np.random.default_rng([settings.seed, DATASETS.index(half.dataset), SPLITS.index(half.split)])
        labels = [event.label for event in half.events]
        interval = auc_interval(labels, half.scores, rng, settings.confidence, settings.n_resamples)
        auc.setdefault(half.dataset, {})[half.split] = interval
    figures = {}
    if consistency:
        lexicon = lexicon_of(scorer, wsd=settings.wsd, min_depth=settings.min_depth)
        for dataset in DATASETS:
            events = load_plausibility_set(dataset, settings.consistency_split)
            chosen = [events[i].triple for i in consistency_sample(len(events), settings, dataset)]
            result = measure_consistency(scorer, chosen, lexicon, batch_size=settings.batch_size, progress=True)
            figures[dataset] = ConsistencyFigures(
                result.concavity_delta,
                result.scale_free_concavity_delta,
                result.local_extremum_rate,
                len(chosen),
                result.n_windows,
                result.lexicon,
            )
    return ModelResult(request.label, request.spec, scorer.probability_mapping, auc, figures)


class SavedResults:
    """Each model's row, written to a folder as soon as it is measured, so that a stopped report resumes.

    A row is read back only when it was measured from the same SPEC under the same conditions (settings,
    and whether consistency was measured), and from the same file (size and modification time) where the
    SPEC names one: a retrained checkpoint is evaluated again.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def load(self, request: ModelRequest, conditions: dict) -> ModelResult | None:
        path = self._path(request)
        if not path.is_file():
            return None
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return None  # unreadable: measured again and overwritten
        if saved.get("key") != self._key(request, conditions):
            return None
        row = saved["result"]
        try:
            return ModelResult(
                row["label"],
                row["spec"],
                row["probability_mapping"],
                {
                    dataset: {split: AucInterval(**v) for split, v in halves.items()}
                    for dataset, halves in row["auc"].items()
                },
                {dataset: ConsistencyFigures(**v) for dataset, v in row["consistency"].items()},
            )
        except (KeyError, TypeError):
            return None  # written by an older layout: measured again and overwritten

    def save(self, request: ModelRequest, conditions: dict, result: ModelResult) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        document = {"key": self._key(request, conditions), "result": asdict(result)}
        atomic_write_text(self._path(request), json.dumps(document, indent=2, ensure_ascii=False) + "\n")

    def _path(self, request: ModelRequest) -> Path:
        return self.folder / (re.sub(r"[^A-Za-z0-9._-]+", "_", request.label) + ".json")

    @staticmethod
    def _key(request: ModelRequest, conditions: dict) -> dict:
        named = Path(request.spec.rpartition(":")[2])  # the checkpoint or triples file a SPEC ends with, if any
        stat = named.stat() if named.is_file() else None
        return {
            "label": request.label,
            "spec": request.spec,
            **conditions,
            "file": [str(named), stat.st_size, stat.st_mtime_ns] if stat else None,
        }


def build_report(
    requests: Sequence[ModelRequest],
    optional: Sequence[ModelRequest],
    settings: ReportSettings,
    load: Callable[[str], TripleScorer],
    consistency: bool = True,
    saved: SavedResults | None = None,
) -> Report:
    """Evaluate every requested model; an `optional` one that cannot be loaded is listed as skipped instead.

    With `saved`, rows measured by an earlier, stopped run are read back instead of measured again.
    """
    models, skipped = [], {}
    conditions = {"settings": asdict(settings), "consistency": consistency}
    for request in [*requests, *optional]:
        known = saved.load(request, conditions) if saved else None
        if known is not None:
            models.append(known)
            continue
        try:
            scorer = load(request.spec)
        except PlausibilityError as error:
            if request not in optional:
                raise
            skipped[request.label] = str(error)
            continue
        result = evaluate_scorer(request, scorer, settings, consistency)
        if saved:
            saved.save(request, conditions, result)
        models.append(result)
    return Report(models, settings, skipped)


# --- rendering ------------------------------------------------------------------------------------------


def _number(value: float | None, digits: int = 3) -> str:
    """`.623` (leading zero dropped, as in the thesis tables); `–` for a missing value."""
    if value is None:
        return "–"
    text = f"{value:.{digits}f}"
    return text.replace("0.", ".", 1) if text.startswith(("0.", "-0.")) else text


def _interval(interval: AucInterval | None) -> str:
    if interval is None:
        return "–"
    return f"{_number(interval.estimate)} [{_number(interval.low)}, {_number(interval.high)}]"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def auc_markdown(models: Sequence[ModelResult]) -> str:
    """Table 6.4 in kind: AUC [95% interval] on the valid and test halves, the thesis's test AUC beside."""
    header = ["model"]
    for dataset in DATASETS:
        title = DATASET_TITLES[dataset]
        header += [f"{title} {split}" for split in SPLITS] + [f"{title} test (thesis)"]
    rows = []
    for model in models:
        row = [model.label]
        for dataset in DATASETS:
            row += [_interval(model.auc.get(dataset, {}).get(split)) for split in SPLITS]
            row.append(_number(model.thesis.auc[dataset], 2) if model.thesis else "–")
        rows.append(row)
    return _table(header, rows)


def consistency_markdown(models: Sequence[ModelResult]) -> str:
    """Table 6.5 in kind: CCΔ, scale-free CCΔ and LER per dataset (lower is better), the thesis's beside."""
    header = ["model"]
    for dataset in DATASETS:
        title = DATASET_TITLES[dataset]
        header += [f"{title} {name}" for name in ("CCΔ", "CCΔ scale-free", "LER", "CCΔ (thesis)", "LER (thesis)")]
    rows = []
    for model in models:
        row = [model.label]
        for dataset in DATASETS:
            ours = model.consistency.get(dataset)
            theirs = model.thesis.consistency[dataset] if model.thesis else None
            row += [_number(ours.ccd) if ours else "–", _number(ours.ccd_scale_free) if ours else "–"]
            row += [_number(ours.ler) if ours else "–"]
            row += [_number(theirs[0], 2) if theirs else "–", _number(theirs[1], 2) if theirs else "–"]
        rows.append(row)
    return _table(header, rows)


CONSISTENCY_NOTE = (
    "CCΔ is on each scorer's own probabilities, as in the thesis; the scale-free CCΔ is the same mean on each "
    "cell's percentile rank among all distinct abstractions scored for that half, so a scorer whose "
    "probabilities are all tiny cannot win by scale."
)


def _lexicon_text(model: ModelResult) -> str:
    lexicon = next(iter(model.consistency.values())).lexicon
    size = f" ({lexicon['vocabulary_size']:,} nouns)" if lexicon.get("vocabulary_size") else ""
    return f"{lexicon['vocabulary']}{size}, min depth {lexicon['min_depth']}, WSD {lexicon['wsd']}"


def report_markdown(report: Report) -> str:
    """Both tables with the notes needed to read them."""
    settings = report.settings
    confidence = f"{settings.confidence:.0%}"
    sample = "all" if settings.consistency_events is None else f"a seeded sample of {settings.consistency_events}"
    parts = [
        "# Plausibility results",
        f"## AUC (higher is better; [{confidence} bootstrap interval, {settings.n_resamples} resamples])",
        auc_markdown(report.models),
        "Thesis figures: Porada's thesis, Table 6.4 (test halves only).",
    ]
    if any(model.consistency for model in report.models):
        parts += [
            "## Consistency across abstractions (lower is better)",
            consistency_markdown(report.models),
            f"Events: {sample} of each {settings.consistency_split} half. {CONSISTENCY_NOTE} "
            "Thesis figures: Table 6.5 (all events).",
            "Lexicon of each model's grids:\n"
            + "\n".join(f"- **{model.label}**: {_lexicon_text(model)}" for model in report.models if model.consistency),
        ]
    parts.append(
        "## Models\n"
        + "\n".join(
            f"- **{model.label}**: `{model.spec}`; probabilities: {model.probability_mapping}"
            for model in report.models
        )
    )
    if report.skipped:
        parts.append("## Skipped\n" + "\n".join(f"- **{label}**: {why}" for label, why in report.skipped.items()))
    return "\n\n".join(parts) + "\n"


def report_json(report: Report) -> dict:
    """The report as plain JSON values, with each model's thesis figures where the thesis has them."""
    models = []
    for model in report.models:
        entry = asdict(model)
        entry["thesis"] = asdict(model.thesis) if model.thesis else None
        models.append(entry)
    return {"settings": asdict(report.settings), "models": models, "skipped": report.skipped}


def write_report(report: Report, requests: Sequence[ModelRequest], output: Path) -> dict[str, Path]:
    """Write `config.yaml`, `results.json`, `report.md` and `auc.png` into `output`, each atomically."""
    from plausibility.evaluation.report_plot import save_auc_chart

    output.mkdir(parents=True, exist_ok=True)
    config = {"models": [asdict(request) for request in requests], **asdict(report.settings)}
    paths = {name: output / name for name in ("config.yaml", "results.json", "report.md", "auc.png")}
    atomic_write_text(paths["config.yaml"], yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    atomic_write_text(paths["results.json"], json.dumps(report_json(report), indent=2, ensure_ascii=False) + "\n")
    atomic_write_text(paths["report.md"], report_markdown(report))
    save_auc_chart(report.models, paths["auc.png"])
    return paths

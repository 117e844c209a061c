"""The main job on the embedded offline defaults: train ConceptMax, evaluate it, explain, score discourse pairs."""

import json
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from plausibility.atomic import atomic_write_text
from plausibility.devices import DEFAULT_OPTIONS, LoadOptions
from plausibility.errors import PlausibilityError
from plausibility.resources.paths import configs_dir, data_dir
from plausibility.triple import Triple

if TYPE_CHECKING:  # the minimal-pairs stack (SciPy's bootstrap) loads only when the demo runs
    from plausibility.minimal_pairs.evaluate import ComparisonResult

EXAMPLE_QUERIES = (
    Triple("dentist", "breathe", "helium"),
    Triple("child", "eat", "apple"),
    Triple("rock", "eat", "sandwich"),
)


@dataclass
class DemoSettings:
    """What the demo runs; the defaults take 2 to 3 minutes on 2 CPU cores (1 min 42 s to 2 min 26 s measured).

    Attributes:
        steps: optimiser steps of the quick ConceptMax run (batch `batch_size` pairs).
        consistency_events: events sampled (seeded) from each test half for CCΔ / LER.
        lieder_limit: LIEDER items per condition (None: all 576 texts of the base experiment).
        explain_min_depth: the min depth of the grids the example queries are explained over (the thesis's
            4): at the model's own depth 8 they hold no abstraction above the queries' words.
        load: where and how the trained model and the causal LM are loaded for scoring (training itself
            runs as its config says, on the CPU).
    """

    output: Path = Path("outputs/demo")
    steps: int = 150
    batch_size: int = 32
    consistency_events: int = 200
    lieder_limit: int | None = None
    queries: Sequence[Triple] = EXAMPLE_QUERIES
    explain_min_depth: int = 4
    seed: int = 0
    load: LoadOptions = DEFAULT_OPTIONS


@dataclass
class DemoResult:
    """Where the report is, and the figures it shows."""

    report: Path
    auc: dict[str, dict[str, float]]
    consistency: dict[str, tuple[float, float]]
    explanations: list[str]
    lieder_accuracy: float
    seconds: dict[str, float] = field(default_factory=dict)


@contextmanager
def _stage(name: str, seconds: dict[str, float], say: Callable[[str], None]) -> Iterator[None]:
    say(f"[demo] {name} ...")
    start = time.perf_counter()
    yield
    seconds[name] = round(time.perf_counter() - start, 1)
    say(f"[demo] {name}: {seconds[name]:.0f} s")


def _quick_config(settings: DemoSettings, run_dir: Path) -> Path:
    """The shipped ConceptMax config with its step budget, run in the folder `run_dir`."""
    source = configs_dir() / "models" / "concept_max.yaml"
    if not source.is_file():
        raise PlausibilityError(f"{source}: the ConceptMax config is missing; reinstall plausibility")
    config = yaml.safe_load(source.read_text())
    config["seed_everything"] = settings.seed
    config["data"]["batch_size"] = settings.batch_size
    trainer = config["trainer"]
    # No validation inside the run: the demo evaluates the final model on every half right after.
    trainer.update(default_root_dir=str(run_dir), max_steps=settings.steps, max_epochs=1, limit_val_batches=0)
    trainer.pop("val_check_interval", None)
    for callback in trainer.get("callbacks") or []:
        if callback["class_path"].endswith("ModelCheckpoint"):
            callback["init_args"].update(monitor=None, save_top_k=1)
    # A rerun replaces the demo's own earlier run: `fit` refuses to write beside an earlier run's checkpoints.
    if (run_dir / "demo-config.yaml").is_file():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / "demo-config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def _lieder_markdown(rows: Sequence["ComparisonResult"]) -> str:
    """LIEDER accuracies beside the human ones as a Markdown table (`|` in comparison names escaped)."""
    lines = ["| comparison | model | human |", "| --- | --- | --- |"]
    for row in rows:
        name = row.comparison.replace("|", "\\|")
        human = "–" if row.human is None else f"{row.human:.2f}"
        lines.append(f"| {name} | {row.accuracy:.2f} | {human} |")
    return "\n".join(lines)


def run_demo(settings: DemoSettings, say: Callable[[str], None] = print) -> DemoResult:
    """Train, evaluate (AUC, CCΔ / LER), explain the example queries, run LIEDER base; write `report.md`."""
    from plausibility.api import load_scorer, pairs
    from plausibility.benchmarks.datasets import DATASETS
    from plausibility.evaluation.grids import score_grids
    from plausibility.evaluation.heatmap import save_heatmap
    from plausibility.evaluation.model_request import ModelRequest
    from plausibility.evaluation.report import Report
    from plausibility.evaluation.results import ReportSettings, evaluate_scorer
    from plausibility.evaluation.results_report import (
        CONSISTENCY_NOTE,
        auc_markdown,
        consistency_markdown,
        write_results_report,
    )
    from plausibility.minimal_pairs.suite_config import load_suite
    from plausibility.minimal_pairs.suite_report import write_suite_report
    from plausibility.models.training import run_lightning
    from plausibility.query.explain import at_min_depth, explain, grid_source

    options = {"device": settings.load.device, "dtype": settings.load.dtype, "batch_size": settings.load.batch_size}
    output = settings.output
    output.mkdir(parents=True, exist_ok=True)
    seconds: dict[str, float] = {}
    run_dir = output / "concept_max"

    with _stage("train ConceptMax", seconds, say):
        run_lightning("fit", ["--config", str(_quick_config(settings, run_dir))])
        checkpoint = run_dir / "checkpoints" / "last.ckpt"
        if not checkpoint.is_file():
            raise PlausibilityError(f"{checkpoint}: training wrote no checkpoint; see {run_dir} for its log")

    requests = [ModelRequest("ConceptMax", f"conceptmax:{checkpoint}"), ModelRequest("n-gram", "ngram")]
    report_settings = ReportSettings(seed=settings.seed, consistency_events=settings.consistency_events)
    models = []
    with _stage("evaluate AUC and consistency", seconds, say):
        for request in requests:
            scorer = load_scorer(request.spec, **options).scorer
            models.append(evaluate_scorer(request, scorer, report_settings))
        write_results_report(Report(models, report_settings), requests, output / "evaluation")

    with _stage("explain example queries", seconds, say):
        concept_max = at_min_depth(load_scorer(requests[0].spec, **options).scorer, settings.explain_min_depth)
        explanations = explain(concept_max, list(settings.queries), top=3)
        inner, lexicon = grid_source(concept_max)
        scored, _ = score_grids(inner, lexicon.abstractor.grids([settings.queries[0]]))
        save_heatmap(scored[0], output / "heatmap.png", f"{settings.queries[0]} (ConceptMax, demo run)")

    with _stage("LIEDER base with the offline causal LM", seconds, say):
        suite = load_suite("lieder", "base")
        lieder = pairs(suite, limit=settings.lieder_limit, seed=settings.seed, **options).result
        write_suite_report(
            {"offline default": lieder},
            suite.resolved,
            {"offline default": {"lm": "offline default"}},
            output / "lieder",
        )

    overall = [row for row in lieder.results if not row.group]
    # The distance-effect rows are statistics with no right answer: they stay out of the mean.
    tests = [row for row in overall if row.kind != "statistic"]
    lieder_accuracy = sum(row.accuracy for row in tests) / len(tests)
    lines = [
        "# plausibility demo",
        f"ConceptMax over the offline MiniLM encoder, trained {settings.steps} steps of {settings.batch_size} "
        f"pairs on the bundled training set (`{data_dir() / 'training'}`), beside the n-gram baseline.",
        "## AUC (95% bootstrap intervals)",
        auc_markdown(models),
        "## Consistency across abstractions (lower is better)",
        consistency_markdown(models),
        f"Events: a seeded sample of {settings.consistency_events} of each test half. {CONSISTENCY_NOTE}",
        f"## Why events are plausible (ConceptMax's arg-max abstraction over grids of min depth "
        f"{settings.explain_min_depth})",
        *(
            f"- **{e.event}**: {e.probability:.3f}; explained by **{e.best}** ({e.best_probability:.3f}); "
            f"best: {', '.join(f'{t} ({p:.3f})' for t, p in e.top)}"
            for e in explanations
        ),
        f"![grid of {settings.queries[0]}](heatmap.png)",
        "## LIEDER base (offline causal LM; human accuracy beside)",
        _lieder_markdown(overall),
        "![LIEDER accuracy](lieder/accuracy.png)",
        "## Files",
        "- `evaluation/`: report.md, results.json and auc.png of both models",
        "- `lieder/`: results.csv, summary.json and accuracy.png",
        "- `concept_max/`: the training run (config, CSV and TensorBoard logs, checkpoints)",
        "## Time per stage (s)",
        *(f"- {name}: {value:.0f}" for name, value in seconds.items()),
    ]
    report = output / "report.md"
    atomic_write_text(report, "\n\n".join(lines) + "\n")
    atomic_write_text(
        output / "results.json", json.dumps({"seconds": seconds, "steps": settings.steps}, indent=2) + "\n"
    )
    return DemoResult(
        report=report,
        auc={d: {s: models[0].auc[d][s].estimate for s in models[0].auc[d]} for d in DATASETS},
        consistency={d: (f.ccd, f.ler) for d, f in models[0].consistency.items()},
        explanations=[f"{e.event} -> {e.best}" for e in explanations],
        lieder_accuracy=lieder_accuracy,
        seconds=seconds,
    )

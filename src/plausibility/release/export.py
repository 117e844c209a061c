"""`export_model`: a trained model (or an ensemble of models) as a folder that loads without unpickling, with its
calibration and a card whose figures were measured on what the folder holds.

A net's folder is written by `ModelFolder.save` (`plausibility.models.model_folder`); an ensemble's folder
names its SPEC. Either is then measured as it will be loaded (a net's weights in fp16): AUC with intervals on
every half of Pep-3k and 20Q, CCΔ / LER on every test event, a Platt calibration (on training pairs, or on the
human-judged valid halves), and how well its probabilities fit each half (ECE, accuracy at .5).
"""

import json
from functools import partial
from pathlib import Path
from typing import Literal

from plausibility.atomic import atomic_path
from plausibility.errors import PlausibilityError, ResourceMissingError
from plausibility.evaluation.judged_calibration import calibration_figures, fit_on_judgements
from plausibility.evaluation.judged_scores import ScoredSet, figures_of
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.results import (
    ModelResult,
    ReportSettings,
    auc_intervals,
    consistency_figures,
    scored_halves,
)
from plausibility.release.cold_start import measure_cold_start
from plausibility.release.exported import ExportResult
from plausibility.release.model_card import evaluation_record, model_card
from plausibility.resources.paths import bundled_pairs, recorded_path
from plausibility.scorers.calibrated import calibrate
from plausibility.scorers.calibration import Calibration, fit_calibration
from plausibility.scorers.protocol import TripleScorer
from plausibility.scorers.stack_folder import stack_calibration

# What a calibration is fitted on: attested vs pseudo-negative training pairs, or the judged valid halves; a
# stack's (`stack`) is its regression's own, fitted before it is measured.
CalibrationSource = Literal["pairs", "judgements", "stack"]


def _check_target(target: Path, overwrite: bool) -> None:
    if target.exists() and not target.is_dir():
        raise PlausibilityError(f"{target}: is a file; give a folder to export into")
    if target.is_dir() and any(target.iterdir()) and not overwrite:
        raise PlausibilityError(f"{target}: folder is not empty; give an empty or new folder, or pass --overwrite")


def _fit(
    scorer: TripleScorer, source: CalibrationSource, halves: list[ScoredSet], pairs: Path, size: int, seed: int
) -> Calibration | None:
    if source == "judgements":
        return fit_on_judgements([half for half in halves if half.judged.split == "valid"])
    if not size:
        return None
    if not pairs.is_file():
        raise ResourceMissingError(f"{pairs}: no such pairs file; pass --pairs FILE or --calibration-pairs 0")
    return fit_calibration(scorer, pairs, size, seed)


def measure_and_write(
    staging: Path,
    target: Path,
    scorer: TripleScorer,
    config: dict,
    evaluate: bool,
    calibration: CalibrationSource,
    pairs: Path,
    calibration_pairs: int,
    seed: int,
    cold_start_runs: int,
    consistency: bool = True,
) -> ExportResult:
    """Measure `scorer` (uncalibrated, as loaded from `staging`), fit its calibration, and write the figures,
    `calibration.json`, `evaluation.json` and the card (`README.md`) into `staging` (bound for `target`)."""
    from plausibility.models.model_folder import CALIBRATION, CARD, EVALUATION

    halves = scored_halves(scorer) if evaluate or calibration == "judgements" else []
    precisions: dict[str, Calibration] = {}
    if calibration == "stack":  # fitted with the stack's regression: read back, one per precision
        precisions = {precision: stack_calibration(staging, precision) for precision in config["precisions"]}
        fitted: Calibration | None = precisions["float32"]
    else:
        fitted = _fit(scorer, calibration, halves, pairs, calibration_pairs, seed)
    calibrated = calibrate(scorer, fitted) if fitted is not None else scorer
    result = None
    if evaluate:
        settings = ReportSettings(seed=seed, consistency_events=None)  # every test event, as the thesis
        request = ModelRequest(str(config["name"]), str(target))
        result = ModelResult(
            request.label,
            request.spec,
            calibrated.probability_mapping,
            auc_intervals(figures_of(halves, seed=seed)),
            consistency_figures(calibrated, settings) if consistency else {},
        )
    own = calibration_figures(halves, scorer.to_probability) if evaluate else {}
    after = calibration_figures(halves, calibrated.to_probability) if evaluate and fitted is not None else {}
    if fitted is not None:
        fitted.save(staging / CALIBRATION)
    if result is not None:
        (staging / EVALUATION).write_text(json.dumps(evaluation_record(result, own, after), indent=1) + "\n")
    sizes = {path.name: path.stat().st_size for path in sorted(staging.iterdir())}
    # Measured as it will load (weights, calibration, config), in fresh processes after one that fills the caches.
    cold_start = measure_cold_start(staging, runs=cold_start_runs) if evaluate and cold_start_runs else None
    exported = ExportResult(target, config, sizes, result, fitted, own, after, cold_start, precisions)
    (staging / CARD).write_text(model_card(exported, pairs), encoding="utf-8")
    sizes[CARD] = (staging / CARD).stat().st_size
    for path in staging.iterdir():
        path.chmod(0o644)  # temporary files are created private; the model's files are as readable as any
    return exported


def export_model(
    source: str | Path,
    target: str | Path,
    overwrite: bool = False,
    evaluate: bool = True,
    calibration: CalibrationSource = "pairs",
    calibration_pairs: int = 1000,
    pairs: str | Path | None = None,
    seed: int = 0,
    name: str | None = None,
    version: str = "1.0",
    summary: str | None = None,
    trained_by: str | None = None,
    cold_start_runs: int = 3,
    plain_weight: float = 1.0,
    consistency: bool = True,
) -> ExportResult:
    """Write the model folder of SOURCE at `target`, all at once (nothing is left half-written).

    Args:
        source: a checkpoint, a run folder (its last checkpoint), an exported folder (exported anew), an
            `ensemble:` SPEC (its members named as any SPEC names them), or `stack:F+F+...`: a logistic regression
            over features (a member SPEC's log-odds, `reversal:<SPEC>`, `restriction`) fitted on the judged valid
            halves of Pep-3k, 20Q and plain, which is its calibration (`calibration` is then not used).
        evaluate: measure AUC with 95% intervals, CCΔ / LER and calibration figures for the card.
        calibration: fit it on `pairs` (training pairs: P means "attested, not a random swap") or on
            `judgements` (the human-judged valid halves of Pep-3k and 20Q: P means "judged plausible").
        calibration_pairs: training pairs drawn (seeded) to fit a `pairs` calibration on; 0 for none.
        pairs: the pairs file to draw them from; default the run's own, else the bundled one.
        seed: seed of the calibration slice and of the bootstrap.
        name: what the card and `plausibility models` call it (default: the folder's name).
        version: its version on the card and in `plausibility models`.
        summary: what it is, in one line (default: from its config).
        trained_by: the commit and command that trained it, for the card (a checkpoint does not record them).
        cold_start_runs: fresh processes timed for the card's cold start when evaluated (the median); 0 for none.
        plain_weight: a stack's fit: what one plain event weighs against one Pep-3k or 20Q event.
        consistency: measure CCΔ / LER on every test event when evaluated (a stack with a language model scores
            every grid cell and its reversal with it: most of an hour on 2 CPU cores).
    """
    if cold_start_runs < 0:
        raise ValueError(f"cold_start_runs must be 0 or more, got {cold_start_runs}")
    target = Path(target)
    _check_target(target, overwrite)
    identity = {"name": name or target.name, "version": version}
    measure = partial(
        measure_and_write,
        evaluate=evaluate,
        calibration=calibration,
        calibration_pairs=calibration_pairs,
        seed=seed,
        cold_start_runs=cold_start_runs,
        consistency=consistency,
    )
    if str(source).startswith("stack:"):
        from plausibility.release.stack_export import fit_stack_folder, parse_stack_source

        features = parse_stack_source(str(source))
        with atomic_path(target, folder=True) as staging:
            config, scorer = fit_stack_folder(staging, features, identity, summary, plain_weight)
            exported = measure(staging, target, scorer, config, pairs=bundled_pairs(), calibration="stack")
    elif str(source).startswith("ensemble:"):
        from plausibility.release.ensemble_folder import write_ensemble_config
        from plausibility.scorers.registry import build_scorer

        scorer = build_scorer(f"uncalibrated:{source}")
        with atomic_path(target, folder=True) as staging:
            config = write_ensemble_config(staging, str(source), identity, summary)
            exported = measure(staging, target, scorer, config, pairs=bundled_pairs())
    else:
        from plausibility.models.model_folder import ModelFolder
        from plausibility.models.trained_model import trained_model
        from plausibility.scorers.trained import load_trained

        model = trained_model(source)
        if trained_by:
            model.training["trained_by"] = trained_by
        trained_on = model.training.get("pairs")
        pairs_path = (
            Path(pairs) if pairs is not None else recorded_path(str(trained_on)) if trained_on else bundled_pairs()
        )
        with atomic_path(target, folder=True) as staging:
            identity["summary"] = summary or model.summary or _summary(model.hparams)
            config = ModelFolder(staging).save(model, identity)
            scorer = load_trained(staging)  # measured as it will load: fp16 weights read back into float32
            exported = measure(staging, target, scorer, config, pairs=pairs_path)
    return exported


def _summary(hparams: dict) -> str:
    """What a trained net is, in one line."""
    net = hparams["net"]
    backbone = net.get("init_args", {}).get("backbone")
    kind = net["class_path"].rpartition(".")[2] + (f" over {backbone}" if backbone else "")
    if hparams.get("abstractions"):
        return f"ConceptMax: a {kind}, scoring an event by its best WordNet abstraction"
    return f"a {kind}, one logit per event"

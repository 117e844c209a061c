"""`export_model`: a trained checkpoint as a compact model folder that loads without unpickling.

A checkpoint of `plausibility fit` carries optimizer state and pickled containers (271 MB for MiniLM); the
exported folder carries the net's weights in fp16 safetensors, the config and lexicon that rebuild the
module, a Platt calibration fitted on held-out training pairs, and a model card with the figures measured
on the exported weights themselves (`plausibility.models.model_folder` reads it back).
"""

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import torch
import yaml

from plausibility import __version__
from plausibility.errors import DataFormatError, PlausibilityError, ResourceMissingError
from plausibility.evaluation.auc import evaluate_auc
from plausibility.evaluation.datasets import DATASETS, SPLITS, load_plausibility_set
from plausibility.evaluation.grids import measure_consistency
from plausibility.evaluation.intervals import AucInterval, auc_interval
from plausibility.models.checkpoint import net_state_dict, read_checkpoint
from plausibility.models.model_folder import (
    CALIBRATION,
    CARD,
    CONFIG,
    EVALUATION,
    EXTRA_STATE,
    FORMAT,
    LEXICON,
    LEXICON_ARGS,
    WEIGHTS,
)
from plausibility.scorers.spec import SHIPPED
from plausibility.scorers.trained import load_trained_scorer
from plausibility.scoring.calibration import (
    Calibration,
    calibrate,
    expected_calibration_error,
    fit_calibration,
)
from plausibility.scoring.protocols import TripleScorer

# Hyperparameters that only `plausibility fit` uses to build the module (not model settings).
_INTERNAL_ARGS = ("_instantiator",)
CONFIDENCE = 0.95
RESAMPLES = 1000


@dataclass(frozen=True)
class RunRecord:
    """What the run folder around a checkpoint tells of its training (None where it has no record).

    Attributes:
        training_seconds: from the CSV logger's file times, summed over its versions: `hparams.yaml` is
            written when fitting starts, `metrics.csv` last when it ends; validation time is included.
    """

    folder: Path | None
    batch_size: int | None = None
    pairs: Path | None = None
    training_seconds: float | None = None


@dataclass(frozen=True)
class ExportResult:
    """The written folder, its files' sizes, and what was measured on the exported weights."""

    folder: Path
    sizes: dict[str, int]
    global_step: int
    run: RunRecord
    auc: dict[str, dict[str, AucInterval]] = field(default_factory=dict)
    calibration: Calibration | None = None
    valid_ece: dict[str, float] = field(default_factory=dict)
    consistency: dict[str, dict[str, float]] = field(default_factory=dict)


def checkpoint_of(source: str | Path) -> Path:
    """The checkpoint a RUN_OR_CKPT names: the file itself, or a run folder's `checkpoints/last.ckpt`."""
    path = Path(source)
    if path.is_dir():
        last = path / "checkpoints" / "last.ckpt"
        if not last.is_file():
            raise ResourceMissingError(f"{source}: no checkpoints/last.ckpt; give a checkpoint or a run folder of fit")
        return last
    if not path.is_file():
        raise ResourceMissingError(f"{source}: no such checkpoint or run folder; train one with `plausibility fit`")
    return path


def run_record(checkpoint: Path) -> RunRecord:
    """Batch size, pairs and training time from the run folder `runs/<name>/checkpoints/<file>.ckpt` sits in."""
    from plausibility.resources import resolve_data_path

    folder = checkpoint.resolve().parent.parent if checkpoint.resolve().parent.name == "checkpoints" else None
    versions = sorted(folder.glob("logs/version_*"), key=lambda p: p.stat().st_mtime) if folder else []
    if not versions:
        return RunRecord(folder)
    batch_size, pairs = None, None
    config_path = versions[-1] / "config.yaml"
    if config_path.is_file():
        data = (yaml.safe_load(config_path.read_text(encoding="utf-8")) or {}).get("data") or {}
        batch_size = data.get("batch_size")
        try:
            pairs = resolve_data_path(data["pairs"]) if "pairs" in data else None
        except ResourceMissingError:
            pairs = None
    spans = [
        (version / "metrics.csv").stat().st_mtime - (version / "hparams.yaml").stat().st_mtime
        for version in versions
        if (version / "metrics.csv").is_file() and (version / "hparams.yaml").is_file()
    ]
    return RunRecord(folder, batch_size, pairs, sum(spans) if spans else None)


def _write_net_state(net_state: dict[str, object], folder: Path) -> None:
    """Tensors into fp16 safetensors; a net's extra state (GloVe+MLP's vocabulary) into JSON beside them."""
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


def _evaluate(scorer: TripleScorer, seed: int) -> tuple[dict[str, dict[str, AucInterval]], dict[str, np.ndarray]]:
    """AUC with bootstrap intervals on every half of Pep-3k and 20Q (seeded as `plausibility report` seeds them)."""
    auc: dict[str, dict[str, AucInterval]] = {}
    scores = {}
    for half in evaluate_auc(scorer, DATASETS, SPLITS):
        rng = np.random.default_rng([seed, DATASETS.index(half.dataset), SPLITS.index(half.split)])
        labels = [event.label for event in half.events]
        auc.setdefault(half.dataset, {})[half.split] = auc_interval(labels, half.scores, rng, CONFIDENCE, RESAMPLES)
        scores[f"{half.dataset}/{half.split}"] = (np.asarray(labels), half.scores)
    return auc, scores


def _consistency(scorer: TripleScorer) -> dict[str, dict[str, float]]:
    """CCΔ (on the scorer's probabilities, and scale-free) and LER over every event of each test half."""
    halves = {dataset: [event.triple for event in load_plausibility_set(dataset, "test")] for dataset in DATASETS}
    return {dataset: measure_consistency(scorer, events).summary() for dataset, events in halves.items()}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _prepare_target(target: Path, overwrite: bool) -> None:
    if target.exists() and not target.is_dir():
        raise PlausibilityError(f"{target}: is a file; give a folder to export into")
    if target.is_dir() and any(target.iterdir()) and not overwrite:
        raise PlausibilityError(f"{target}: folder is not empty; give an empty or new folder, or pass --overwrite")


def _move_into_place(staging: Path, target: Path) -> None:
    """Rename the finished folder onto `target`; an old folder is set aside first and removed after."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.old."))
        os.replace(target, old / target.name)
    os.replace(staging, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def export_model(
    source: str | Path,
    target: str | Path,
    overwrite: bool = False,
    evaluate: bool = True,
    calibration_pairs: int = 1000,
    pairs: str | Path | None = None,
    seed: int = 0,
    trained_by: str | None = None,
) -> ExportResult:
    """Write the model folder of a checkpoint (or a run folder's last one) at `target`, all at once.

    Args:
        evaluate: measure AUC with 95% intervals on every half of Pep-3k and 20Q, for the card.
        calibration_pairs: training pairs drawn (seeded) to fit the Platt calibration on; 0 for none.
        pairs: the pairs file to draw them from; default the run's own, else the bundled one.
        seed: seed of the calibration slice and of the bootstrap.
        trained_by: the commit and command that trained the checkpoint, for the card (a checkpoint does not
            record them).
    """
    from plausibility.resources import data_dir

    target = Path(target)
    _prepare_target(target, overwrite)
    checkpoint_path = checkpoint_of(source)
    checkpoint = read_checkpoint(str(checkpoint_path))
    hparams = checkpoint.get("hyper_parameters", {})
    net_state = net_state_dict(str(checkpoint_path), checkpoint)
    if "net" not in hparams:
        raise DataFormatError(
            f"{checkpoint_path}: no net config in the checkpoint; use one written by `plausibility fit`"
        )
    run = run_record(checkpoint_path)
    pairs_path = Path(pairs) if pairs is not None else run.pairs or data_dir() / "training" / "pairs.parquet"
    if calibration_pairs and not pairs_path.is_file():
        raise ResourceMissingError(f"{pairs_path}: no such pairs file; pass --pairs FILE or --calibration-pairs 0")

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.export."))
    staging.chmod(0o755)  # mkdtemp's folder is private; the model folder is as readable as any other
    try:
        _write_net_state(net_state, staging)
        model = {k: v for k, v in hparams.items() if k not in (*LEXICON_ARGS, *_INTERNAL_ARGS)}
        training = {
            "checkpoint": str(checkpoint_path.resolve()),
            "global_step": int(checkpoint.get("global_step", 0)),
            "epoch": int(checkpoint.get("epoch", 0)),
            "lightning_version": checkpoint.get("pytorch-lightning_version"),
            "batch_size": run.batch_size,
            "pairs": None if run.pairs is None else str(run.pairs),
        }
        if trained_by:
            training["trained_by"] = trained_by
        config = {"format": FORMAT, "plausibility_version": __version__, "model": model, "training": training}
        (staging / CONFIG).write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        vocabulary = hparams.get("vocabulary")
        lexicon = {
            "vocabulary": None if vocabulary is None else list(vocabulary),
            "min_depth": hparams.get("min_depth", 4),
            "wsd": hparams.get("wsd", "mfs"),
        }
        (staging / LEXICON).write_text(json.dumps(lexicon, indent=1) + "\n", encoding="utf-8")
        # Everything below is measured on the weights as exported (fp16, read back into float32).
        scorer = load_trained_scorer(staging)
        auc, scores = _evaluate(scorer, seed) if evaluate else ({}, {})
        calibration = fit_calibration(scorer, pairs_path, calibration_pairs, seed) if calibration_pairs else None
        valid_ece = {}
        calibrated = scorer
        if calibration is not None:
            calibration.save(staging / CALIBRATION)
            calibrated = calibrate(scorer, calibration)
            valid_ece = {
                half: expected_calibration_error(labels, calibrated.to_probability(values))
                for half, (labels, values) in scores.items()
                if half.endswith("/valid")
            }
        consistency = _consistency(calibrated) if evaluate else {}
        if auc:
            figures = {f"{d}/{split}": asdict(value) for d, halves in auc.items() for split, value in halves.items()}
            figures.update({f"{dataset}/test/consistency": values for dataset, values in consistency.items()})
            (staging / EVALUATION).write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        sizes = {path.name: path.stat().st_size for path in sorted(staging.iterdir())}
        result = ExportResult(target, sizes, training["global_step"], run, auc, calibration, valid_ece, consistency)
        (staging / CARD).write_text(model_card(result, config, lexicon, pairs_path), encoding="utf-8")
        sizes[CARD] = (staging / CARD).stat().st_size
        for path in staging.iterdir():
            path.chmod(0o644)  # temporary files are created private; the model's files are as readable as any
        _move_into_place(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return result


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _portable(path: Path) -> str:
    """A path as the card's reader can follow it: `data/...` for the package's own data, else as given."""
    from plausibility.resources import data_dir

    resolved, data = Path(path).resolve(), data_dir().resolve()
    return f"data/{resolved.relative_to(data)}" if resolved.is_relative_to(data) else str(path)


def _model_argument(folder: Path) -> str:
    """What `--model` takes for this folder: the bare name of a shipped model, else the folder itself."""
    from plausibility.resources import data_dir

    shipped = folder.name in SHIPPED and Path(folder).resolve() == (data_dir() / "models" / folder.name).resolve()
    return folder.name if shipped else str(folder)


def model_card(result: ExportResult, config: dict, lexicon: dict, pairs: Path) -> str:
    """MODEL_CARD.md: data and provenance, config, training, evaluation, calibration, use and limits."""
    from plausibility.resources import data_dir

    model, training = config["model"], config["training"]
    net = model["net"]
    kind = "ConceptMax (maximum over abstractions)" if model.get("abstractions") else "classifier"
    steps, batch = result.global_step, result.run.batch_size
    lines = [
        f"# Plausibility model: {result.folder.name}",
        "",
        f"Exported by plausibility {__version__} on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC from "
        f"`{training['checkpoint']}` (global step {steps}, epoch {training['epoch']}).",
        *(["", f"Trained {training['trained_by']}."] if training.get("trained_by") else []),
        "",
        "## Data and provenance",
        "",
    ]
    if training["pairs"] is None:
        lines.append(
            "Training pairs: not recorded (no run folder with a CSV logger `config.yaml` beside the checkpoint)."
        )
    else:
        trained_on = Path(training["pairs"])
        digest = _sha256(trained_on)
        lines.append(f"Training pairs: `{_portable(trained_on)}` (sha256 `{digest}`).")
        bundled = data_dir() / "training" / "pairs.parquet"
        if bundled.is_file() and digest == _sha256(bundled):  # by content: a copy of the bundled set is the set
            lines.append(
                "This is the bundled training set: its sources, filters and checksums are in `data/PROVENANCE.md` "
                "(section *Bundled training set*) and `data/training/manifest.json` of the plausibility sources."
            )
    lines += [
        f"Training nouns: {'all of WordNet' if lexicon['vocabulary'] is None else len(lexicon['vocabulary'])} "
        f"(in `{LEXICON}`), min depth {lexicon['min_depth']}, WSD `{lexicon['wsd']}`.",
        "",
        "## Model",
        "",
        f"- kind: {kind}; net `{net['class_path']}` with {net.get('init_args', {})}",
        f"- abstractions sampled in training: {model.get('abstractions', 0)}",
        f"- optimizer: `{model.get('optimizer', {}).get('class_path')}` {model.get('optimizer', {}).get('init_args')}",
        f"- scheduler: {model.get('scheduler')}",
        f"- weights: `{WEIGHTS}`, fp16 ({result.sizes.get(WEIGHTS, 0) / 2**20:.1f} MiB), net only, no optimizer state;"
        " the backbone named above must be installed (its tokenizer and architecture are read from it)",
        "",
        "## Training",
        "",
        f"- steps (global_step): {steps}",
        f"- batch size: {batch if batch is not None else 'not recorded'}",
        f"- pairs seen: {f'{steps * batch:,} (steps x batch size)' if batch is not None else 'not recorded'}",
    ]
    if result.run.training_seconds is None:
        lines.append("- training time: not recorded (no CSV logger files in the run folder)")
    else:
        lines.append(
            f"- training time: {_duration(result.run.training_seconds)}, from file modification times of the CSV "
            "logger (`hparams.yaml` written at the start, `metrics.csv` last written at the end, summed over "
            "versions; validation included)"
        )
    lines += ["", "## Evaluation", ""]
    if result.auc:
        lines += [
            f"ROC-AUC of the exported weights, with {CONFIDENCE:.0%} percentile-bootstrap intervals "
            f"({RESAMPLES} stratified resamples):",
            "",
            "| dataset | valid | test |",
            "| --- | --- | --- |",
        ]
        for dataset, halves in result.auc.items():
            cells = [f"{a.estimate:.3f} [{a.low:.3f}, {a.high:.3f}]" for a in (halves[s] for s in SPLITS)]
            lines.append(f"| {dataset} | {' | '.join(cells)} |")
        lines += [
            "",
            "Consistency across abstractions over every event of each test half (lower is better), in the grids of "
            "its training nouns (above): CCΔ on the model's probabilities (calibrated where a calibration is given), "
            "the scale-free CCΔ on each cell's percentile rank, and LER:",
            "",
            "| dataset | CCΔ | scale-free CCΔ | LER | windows |",
            "| --- | --- | --- | --- | --- |",
        ]
        for dataset, values in result.consistency.items():
            lines.append(
                f"| {dataset} | {values['ccd']:.4f} | {values['ccd_scale_free']:.4f} | {values['ler']:.3f} | "
                f"{values['windows']:,} |"
            )
    else:
        lines.append("Not evaluated at export (`--no-evaluate`); run `plausibility evaluate --model <this folder>`.")
    lines += ["", "## Calibration", ""]
    calibration = result.calibration
    if calibration is None:
        lines.append("None: probabilities are the scorer's own map (sigmoid of the logit).")
    else:
        lines += [
            f"`{CALIBRATION}`: P(attested) = {calibration.describe().removeprefix('Platt-calibrated ')} "
            f"(Platt scaling, unpenalised logistic regression), 0.5 at score {calibration.crossing:.3f}.",
            f"Fitted on {calibration.n} events: {calibration.slice}; label 1 for the attested event, 0 for its "
            f"pseudo-negative. Never on the evaluation sets.",
            f"Expected calibration error ({10} equal-width bins) on that slice: {calibration.ece_before:.4f} with the "
            f"plain sigmoid of the logit, {calibration.ece_after:.4f} calibrated (in-sample).",
        ]
        if batch is not None and training["pairs"] is not None and pairs.resolve() == Path(training["pairs"]).resolve():
            rows = _pair_rows(pairs)
            share = min(1.0, steps * batch / rows)
            lines.append(
                f"The slice comes from the pairs the model trained on, shuffled each epoch: each pair was seen in "
                f"training with probability about {share:.0%} ({steps * batch:,} pairs seen of {rows:,}), so the "
                "slice is not fully held out and the calibration may be somewhat overconfident."
            )
        if result.valid_ece:
            figures = ", ".join(f"{half} {ece:.4f}" for half, ece in result.valid_ece.items())
            lines.append(f"ECE of the calibrated probabilities on the evaluation sets' valid halves: {figures}.")
    lines += [
        "",
        "## Use",
        "",
        f"    plausibility score person breathe air --model {_model_argument(result.folder)}",
        f"    python -c 'from plausibility import load_scorer; load_scorer(\"{_model_argument(result.folder)}\")'",
        "",
        "Loading reads safetensors, YAML and JSON only; a folder holding a pickle file is refused.",
        "",
        "## Intended use and limits",
        "",
        "- Ranking subject-verb-object events (lemmas) by plausibility, and probing selectional preference; "
        "research use.",
        "- Trained on automatically extracted Wikipedia triples against pseudo-negatives: it learns what is "
        "attested in text, which is not what is physically possible (reporting bias), and it inherits the "
        "corpus's biases.",
        "- The calibrated probability is calibrated for attested vs pseudo-negative training pairs; on other "
        "distributions (e.g. human-judged sets) 0.5 need not be the best threshold.",
        "- English lemmas only; words outside WordNet or the training nouns are scored but flagged by "
        "`plausibility score`.",
        "",
    ]
    return "\n".join(lines)


def _pair_rows(pairs: Path) -> int:
    import pyarrow.parquet as pq

    return pq.read_metadata(pairs).num_rows

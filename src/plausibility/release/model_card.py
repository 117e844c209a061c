"""A model's card (`README.md`, under a metadata block model hubs read) and its figures (`evaluation.json`), from
what its export measured."""

from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

from plausibility.checksums import file_sha256
from plausibility.evaluation.intervals import AucInterval
from plausibility.evaluation.judged_calibration import CalibrationFigures
from plausibility.evaluation.results import ConsistencyFigures, ModelResult
from plausibility.release.card_metadata import card_metadata
from plausibility.release.exported import ExportResult
from plausibility.resources.paths import bundled_pairs, data_dir, portable_path, recorded_path
from plausibility.scorers.shipped import STACK_FORMAT, shipped_bytes
from plausibility.scorers.stack_folder import calibration_file
from plausibility.version import __version__

CONFIDENCE = 0.95
RESAMPLES = 1000


def consistency_record(figures: ConsistencyFigures) -> dict[str, float]:
    """What `evaluation.json` keeps of a test half's CCΔ / LER."""
    return {name: getattr(figures, name) for name in ("ccd", "ccd_scale_free", "ler", "windows")}


def evaluation_record(
    result: ModelResult, own: dict[str, CalibrationFigures], calibrated: dict[str, CalibrationFigures]
) -> dict[str, object]:
    """`evaluation.json`: each half's AUC with its interval, each test half's CCΔ / LER, and how the own and the
    calibrated probabilities fit each half."""
    record: dict[str, object] = {
        f"{dataset}/{split}": asdict(interval)
        for dataset, halves in result.auc.items()
        for split, interval in halves.items()
    }
    record.update({f"{dataset}/test/consistency": consistency_record(c) for dataset, c in result.consistency.items()})
    record.update({f"{half}/own_probabilities": asdict(figures) for half, figures in own.items()})
    record.update({f"{half}/calibrated": asdict(figures) for half, figures in calibrated.items()})
    return record


def _model_argument(folder: Path) -> str:
    """What `--model` takes for this folder: the bare name of a shipped model, else the folder itself."""
    shipped = folder.resolve() == (data_dir() / "models" / folder.name).resolve()
    return folder.name if shipped else str(folder)


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def _net_sections(config: dict, pairs: Path) -> list[str]:
    model, training = config["model"], config["training"]
    net = model["net"]
    kind = "ConceptMax (maximum over abstractions)" if model.get("abstractions") else "classifier"
    steps, batch = training.get("global_step", 0), training.get("batch_size")
    lines = ["## Data and provenance", ""]
    if training.get("pairs") is None:
        lines.append("Training pairs: not recorded (no run folder with a CSV logger `config.yaml` by the checkpoint).")
    else:
        trained_on = recorded_path(str(training["pairs"]))
        digest = file_sha256(trained_on) if trained_on.is_file() else "not found here"
        lines.append(f"Training pairs: `{portable_path(trained_on)}` (sha256 `{digest}`).")
        if trained_on.is_file() and bundled_pairs().is_file() and digest == file_sha256(bundled_pairs()):
            lines.append(
                "This is the bundled training set: its sources, filters and checksums are in `data/PROVENANCE.md` "
                "(section *Bundled training set*) and `data/training/manifest.json` of the plausibility sources."
            )
    lines += [
        "",
        "## Model",
        "",
        f"- kind: {kind}; net `{net['class_path']}` with {net.get('init_args', {})}",
        f"- abstractions sampled in training: {model.get('abstractions', 0)}",
        f"- optimizer: `{model.get('optimizer', {}).get('class_path')}` {model.get('optimizer', {}).get('init_args')}",
        f"- scheduler: {model.get('scheduler')}",
        "- weights: `model.safetensors`, fp16, net only, no optimizer state; the backbone named above must be "
        "installed (its tokenizer and architecture are read from it)",
        "",
        "## Training",
        "",
        f"- from `{training.get('checkpoint')}` (global step {steps}, epoch {training.get('epoch')})",
        *([f"- trained {training['trained_by']}"] if training.get("trained_by") else []),
        f"- batch size: {batch if batch is not None else 'not recorded'}",
        f"- pairs seen: {f'{steps * batch:,} (steps x batch size)' if batch is not None else 'not recorded'}",
    ]
    seconds = training.get("training_seconds")
    lines.append(
        "- training time: not recorded (no CSV logger files in the run folder)"
        if seconds is None
        else f"- training time: {_duration(float(seconds))} (from the CSV logger's file times; validation included)"
    )
    return [*lines, ""]


def _ensemble_sections(config: dict) -> list[str]:
    total = sum(member["weight"] for member in config["members"])
    lines = [
        "## Model",
        "",
        f"`{config['spec']}`: each member's probability is calibrated on training pairs (so their log-odds share "
        "one scale), and the ensemble's score is the weighted mean of those log-odds:",
        "",
        "| member | weight | share |",
        "| --- | --- | --- |",
    ]
    lines += [f"| `{m['spec']}` | {m['weight']:g} | {m['weight'] / total:.3f} |" for m in config["members"]]
    lines += ["", "Each shipped member has a card of its own (`plausibility models NAME`).", ""]
    return lines


def _stack_sections(exported: ExportResult) -> list[str]:
    config = exported.config
    features = [feature["feature"] for feature in config["features"]]
    lines = [
        "## Model",
        "",
        "A logistic regression over the features below, fitted on the judged valid halves of Pep-3k, 20Q and plain "
        "(the regression is its calibration). Each member is calibrated on training pairs, so their log-odds share "
        "one scale; `reversal:` is a member's log-odds of the event minus those of its role reversal (subject and "
        "object swapped)"
        + (
            "; `restriction` is how far the share of people or animals among the verb's attested subjects in the "
            "bundled training triples is beyond one half, where the event's subject is neither (else 0)."
            if "restriction" in features
            else "."
        ),
        "",
        "| feature | coefficient |",
        "| --- | --- |",
        *(f"| `{feature['feature']}` | {feature['coefficient']:.4f} |" for feature in config["features"]),
        f"| intercept | {config['intercept']:.4f} |",
        "",
        "Each shipped member has a card of its own (`plausibility models NAME`). `plausibility score --explain` "
        "says which " + ("restriction or " if "restriction" in features else "") + "reversal pulls an event's "
        "probability down.",
        "",
    ]
    if exported.precisions and any(member.startswith("zero-shot") for member in config["members"]):
        lines += [
            "Its language model runs in bfloat16 on a CPU with bfloat16 units (AVX512_BF16 or AMX), in float32 "
            "elsewhere (`--dtype` or `PLAUSIBILITY_PRECISION` chooses); each precision has its own calibration of the "
            "regression's score, and `plausibility score --json` says which ran (`precision`). The figures below "
            "are float32's:",
            "",
            "| precision | file | P |",
            "| --- | --- | --- |",
            *(
                f"| {precision} | `{calibration_file(precision)}` | {calibration.formula} |"
                for precision, calibration in exported.precisions.items()
            ),
            "",
        ]
    return lines


CONSISTENCY_HEADER = ["| dataset | CCΔ | scale-free CCΔ | LER | windows |", "| --- | --- | --- | --- | --- |"]
FIT_HEADER = [
    "| half | ECE own → calibrated | accuracy at .5 own → calibrated | best threshold's accuracy |",
    "| --- | --- | --- | --- |",
]


def auc_table(auc: dict[str, dict[str, AucInterval]]) -> list[str]:
    """The card's AUC paragraph and table: each dataset's valid and test AUC with its interval."""
    lines = [
        f"ROC-AUC with {CONFIDENCE:.0%} percentile-bootstrap intervals ({RESAMPLES} stratified resamples), each event "
        "read as its lemmas as `plausibility evaluate` reads it; the valid halves may have been used to choose it, "
        "the test halves never:",
        "",
        "| dataset | valid | test |",
        "| --- | --- | --- |",
    ]
    for dataset, halves in auc.items():
        cells = [f"{a.estimate:.3f} [{a.low:.3f}, {a.high:.3f}]" for a in (halves["valid"], halves["test"])]
        lines.append(f"| {dataset} | {' | '.join(cells)} |")
    return lines


def consistency_rows(consistency: dict[str, ConsistencyFigures]) -> list[str]:
    """The card's table below `CONSISTENCY_HEADER`: each test half's CCΔ / LER."""
    return [
        f"| {dataset} | {c.ccd:.4f} | {c.ccd_scale_free:.4f} | {c.ler:.3f} | {c.windows:,} |"
        for dataset, c in consistency.items()
    ]


def fit_rows(own: dict[str, CalibrationFigures], after: dict[str, CalibrationFigures]) -> list[str]:
    """The card's table below `FIT_HEADER`: how the own and the calibrated probabilities fit each half."""
    return [
        f"| {half} | {own[half].ece:.3f} → {figures.ece:.3f} | {own[half].accuracy:.3f} → {figures.accuracy:.3f} | "
        f"{figures.best_accuracy:.3f} |"
        for half, figures in after.items()
    ]


def _size(exported: ExportResult) -> str:
    """The folder's size; an ensemble's with the folders of the shipped members it loads."""
    own = sum(exported.sizes.values())
    if "members" not in exported.config:
        return f"{own / 2**20:.1f} MiB"
    stack = exported.config.get("format") == STACK_FORMAT
    members = shipped_bytes(*exported.config["members"]) if stack else shipped_bytes(exported.config["spec"])
    return f"{own / 2**10:.0f} KiB of its own, {(own + members) / 2**20:.1f} MiB with the shipped models it reads"


def model_card(exported: ExportResult, pairs: Path) -> str:
    """The card: its metadata block, then what the model is, its figures with intervals, its calibration, use and
    limits."""
    config, result, calibration = exported.config, exported.result, exported.calibration
    evaluation = {} if result is None else evaluation_record(result, exported.own, exported.calibrated)
    name, argument = config["name"], _model_argument(exported.folder)
    python_example = f'load_scorer("{argument}").probability([("person", "breathe", "air")])'
    lines = [
        f"# {name} {config['version']}",
        "",
        f"{config['summary'][0].upper()}{config['summary'][1:]}.",
        "",
        f"Exported by plausibility {__version__} on {datetime.now(UTC):%Y-%m-%d} UTC; {_size(exported)}.",
        "",
    ]
    if exported.cold_start is not None:
        lines += [f"Cold start: {exported.cold_start.describe()}.", ""]
    if config.get("format") == STACK_FORMAT:
        lines += _stack_sections(exported)
    else:
        lines += _ensemble_sections(config) if "members" in config else _net_sections(config, pairs)
    lines += ["## Evaluation", ""]
    if result is None:
        lines += ["Not evaluated at export (`--no-evaluate`); run `plausibility evaluate --model <this folder>`.", ""]
    else:
        lines += [
            *auc_table(result.auc),
            "",
            "Consistency across abstractions over every event of each test half (lower is better), in the grids "
            "of its lexicon: CCΔ on its probabilities, CCΔ on each cell's percentile rank (scale-free), and LER:",
            "",
            *CONSISTENCY_HEADER,
            *consistency_rows(result.consistency),
        ]
        if not result.consistency:
            lines[-4:] = ["Consistency across abstractions: not measured at export (`--no-consistency`)."]
        lines.append("")
    lines += ["## Calibration", ""]
    if calibration is None:
        lines += ["None: probabilities are the scorer's own map of its scores.", ""]
    else:
        meaning = (
            "P is the probability that a person judges the event plausible"
            if calibration.target == "judgements"
            else "P is the probability that the event is attested rather than a random swap of its words "
            "(the training pairs' pseudo-negatives); on human-judged sets .5 need not be the best threshold"
        )
        lines += [
            f"`calibration.json`: P = {calibration.formula} (Platt scaling, unpenalised logistic regression), "
            f".5 at score {calibration.crossing:.3f}, fitted on {calibration.fitted_on}: {meaning}. AUC is "
            "unchanged by it.",
            "",
        ]
        training = config.get("training") or {}
        steps, batch, trained_on = training.get("global_step"), training.get("batch_size"), training.get("pairs")
        same_pairs = trained_on is not None and recorded_path(str(trained_on)).resolve() == pairs.resolve()
        if calibration.target == "pairs" and steps and batch and same_pairs:
            rows = _rows(pairs)
            lines += [
                f"The slice comes from the pairs the model trained on, shuffled each epoch: each pair was seen in "
                f"training with probability about {min(1.0, steps * batch / rows):.0%} ({steps * batch:,} pairs seen "
                f"of {rows:,}), so the slice is not fully held out and the calibration may be somewhat overconfident.",
                "",
            ]
        if exported.calibrated:
            lines += [
                "How the probabilities fit each half (ECE over 10 equal-width bins; the valid halves are in-sample "
                "for a calibration fitted on them):",
                "",
                *FIT_HEADER,
                *fit_rows(exported.own, exported.calibrated),
                "",
            ]
    lines += [
        "## Use",
        "",
        f"    plausibility score person breathe air --model {argument}",
        f"    python -c 'from plausibility import load_scorer; print({python_example})'",
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
        "- English lemmas only; words outside WordNet or the training nouns are scored but flagged by "
        "`plausibility score`.",
        "",
    ]
    return card_metadata(config, evaluation) + "\n".join(lines)


def _rows(pairs: Path) -> int:
    import pyarrow.parquet as pq

    return pq.read_metadata(pairs).num_rows

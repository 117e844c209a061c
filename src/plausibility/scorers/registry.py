"""`build_scorer`: any TripleScorer from one parsed SPEC, built by the factory of its kind; wrappers compose here.

Every scorer's probabilities are Platt-calibrated (`plausibility.scorers.calibration`): a shipped model by its
own calibration on the human-judged valid halves, an exported folder by the one it was exported with, a named
offline scorer by the fit shipped in `data/calibration/`, any other by a fit on training pairs made on its
first probability and cached. `uncalibrated:<SPEC>` keeps the scorer's own map of its scores. Scores,
rankings and AUC are the same either way.

The kinds a SPEC names as `name[:argument]` are registered in `plausibility.scorers.kinds`; every factory imports
what it needs when called, so naming one scorer never loads another's dependencies.
"""

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from plausibility.devices import DType, LoadOptions, fast_precision
from plausibility.models.model_folder import CALIBRATION
from plausibility.scorers.calibrated import calibrate, uncalibrated
from plausibility.scorers.calibration import Calibration
from plausibility.scorers.calibration_store import calibration_for
from plausibility.scorers.kinds import KINDS
from plausibility.scorers.protocol import GridSearcher, TripleScorer
from plausibility.scorers.shipped import DEFAULT_MODEL, ensemble_spec, model_folder, stack_config
from plausibility.scorers.spec import ScorerSpec, parse_spec, stamps

Factory = Callable[[ScorerSpec, LoadOptions], TripleScorer]


def _trained(spec: ScorerSpec, options: LoadOptions) -> TripleScorer:
    """A checkpoint, an exported net's folder or a shipped net."""
    from plausibility.scorers.trained import load_trained

    return load_trained(model_folder(str(spec.source)) if spec.kind == "shipped" else str(spec.source), options)


# The factories of the forms that name files and shipped nets; every other kind's is its `Kind.build`.
FACTORIES: dict[str, Factory] = {"checkpoint": _trained, "folder": _trained, "shipped": _trained}


def _folder(spec: ScorerSpec) -> Path:
    """The folder a `shipped` or `folder` SPEC names."""
    return model_folder(str(spec.source)) if spec.kind == "shipped" else Path(str(spec.source))


def _own_calibration(spec: ScorerSpec, member: bool) -> Calibration | None:
    """The calibration a model folder carries, where it applies: alone always; in an ensemble, only one fitted
    on training pairs, the scale every ensemble's members are averaged on."""
    if spec.kind not in ("shipped", "folder") or not (_folder(spec) / CALIBRATION).is_file():
        return None
    own = Calibration.load(_folder(spec) / CALIBRATION)
    return own if not member or own.target == "pairs" else None


# What calibrates a scorer: a calibration, or a function that finds (or fits) one the first time it is needed.
CalibrationSource = Calibration | Callable[[], Calibration]


def _found(spec: ScorerSpec, scorer: TripleScorer) -> CalibrationSource:
    """The calibration the store holds for SPEC's scorer (shipped, cached or fitted on training pairs), found the
    first time a probability is asked for, from the files as they were when the scorer was built."""
    loaded_from = stamps(spec)
    return lambda: calibration_for(spec, scorer, loaded_from)


def _stack(
    folder: Path, config: dict, options: LoadOptions, loaded: dict[str, TripleScorer]
) -> tuple[TripleScorer, Callable[[], CalibrationSource]]:
    """A stacked model's folder: its members built as an ensemble's are, its language model in the precision
    asked for, else `fast_precision` (a stack without one: float32), and the calibration of that precision (its
    nets stay in float32: the calibrations were fitted so)."""
    from plausibility.scorers.stack_folder import load_stack, stack_calibration

    with_lm = any(parse_spec(text).kind == "zero-shot" for text in config["members"])
    precision = options.dtype or (fast_precision(options.torch_device("auto")) if with_lm else "float32")

    def member(text: str) -> TripleScorer:
        parsed = parse_spec(text)
        own = replace(options, dtype=precision if parsed.kind == "zero-shot" else None)
        return _build(parsed, own, True, loaded, member=True)

    stack = load_stack(folder, config, {text: member(text) for text in config["members"]}, precision)
    return stack, lambda: stack_calibration(folder, precision)


def _assembled(
    spec: ScorerSpec, options: LoadOptions, loaded: dict[str, TripleScorer], member: bool
) -> tuple[TripleScorer, Callable[[], CalibrationSource]]:
    """SPEC's scorer with its own map of scores to probabilities, and what chooses the calibration that applies to
    it (called only where the scorer is calibrated: a stack being exported has no calibration yet).

    `event:` unwraps a ConceptMax: the scorer inside it (a ConceptMax model's net), calibrated on its own scores of
    events, since the model's calibration was fitted on its maxima. `ensemble:` averages its members' calibrated
    log-odds and is calibrated again as a whole. A stacked folder carries a calibration per precision; a shipped
    or exported ensemble (the default 1.x) its own, else the store's for the SPEC its folder names. Any other
    scorer takes its folder's own calibration where it applies (`_own_calibration`), else the store's.
    """
    if spec.kind == "event":
        inner = _build(spec.inner, options, False, loaded, member)  # type: ignore[arg-type]
        scorer = inner.searched if isinstance(inner, GridSearcher) else inner
        return scorer, lambda: _found(spec, scorer)
    if spec.kind == "ensemble":
        from plausibility.scorers.ensemble import EnsembleScorer

        members = [_build(part, options, True, loaded, member=True) for part in spec.members]
        ensemble = EnsembleScorer(members, [str(part) for part in spec.members], spec.weights)
        return ensemble, lambda: _found(spec, ensemble)
    if spec.kind in ("shipped", "folder") and (config := stack_config(_folder(spec))) is not None:
        return _stack(_folder(spec), config, options, loaded)
    if spec.kind in ("shipped", "folder") and (written := ensemble_spec(_folder(spec))) is not None:
        ensemble, found = _assembled(parse_spec(written), options, loaded, member)
        return ensemble, lambda: _own_calibration(spec, member) or found()
    if str(spec) not in loaded:
        factory = KINDS[spec.kind].build if spec.kind in KINDS else FACTORIES[spec.kind]
        loaded[str(spec)] = factory(spec, options)
    scorer = uncalibrated(loaded[str(spec)])
    return scorer, lambda: _own_calibration(spec, member) or _found(spec, scorer)


def _build(
    spec: ScorerSpec,
    options: LoadOptions,
    calibrate_probabilities: bool = True,
    loaded: dict[str, TripleScorer] | None = None,
    member: bool = False,
) -> TripleScorer:
    """The scorer of a parsed SPEC, loaded as `options` say, with calibrated probabilities unless told not to:
    the one place a calibration is applied (`_assembled` says which).

    `loaded` holds what the factories built so far, by SPEC, so that the members of one ensemble that read
    the same model (`event:conceptmax+conceptmax`) share one copy of it: wrappers never change what they wrap.
    An ensemble's members (`member`) are calibrated on training pairs, so that their log-odds share one scale
    whatever their own calibrations are. `uncalibrated:` keeps the scorer's own map. `conceptmax:` wraps the inner
    scorer, over its training lexicon (else the bundled one): the maximum of calibrated probabilities is the
    calibrated probability of the maximum, so the inner scorer's calibration is the wrapper's.
    """
    loaded = {} if loaded is None else loaded
    if spec.kind == "uncalibrated":
        return _build(spec.inner, options, False, loaded, member)  # type: ignore[arg-type]
    if spec.kind == "conceptmax":
        from plausibility.lexicon.training_lexicon import lexicon_of
        from plausibility.scorers.concept_max import ConceptMax

        inner = _build(spec.inner, options, calibrate_probabilities, loaded, member)  # type: ignore[arg-type]
        return inner if isinstance(inner, GridSearcher) else ConceptMax(inner, lexicon_of(inner.lexicon))
    scorer, chosen = _assembled(spec, options, loaded, member)
    return calibrate(scorer, chosen()) if calibrate_probabilities else scorer


def build_scorer(
    spec: str | ScorerSpec | None = None,
    *,
    device: str | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
) -> TripleScorer:
    """The calibrated scorer a SPEC names (None: the shipped default model); unknown forms fail with the known ones.

    Args:
        spec: a SPEC string (see `plausibility.scorers.spec`) or a parsed one.
        device: `cpu`, `cuda`, `cuda:N`, `mps` or `auto`; None keeps each scorer's default. A device this
            machine lacks fails before anything loads.
        dtype: `float32`, `bfloat16` or `float16`; None keeps each scorer's own (float32, but a stacked model's
            language model runs in bfloat16 on a CPU with bfloat16 units: `plausibility.devices.fast_precision`).
        batch_size: sequences or triples per forward pass; None keeps each scorer's default.
    """
    options = LoadOptions(device, dtype, batch_size)
    if device is not None:
        options.torch_device(device)
    parsed = spec if isinstance(spec, ScorerSpec) else parse_spec(spec or DEFAULT_MODEL)
    return _build(parsed, options)

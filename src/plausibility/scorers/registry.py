"""`load_scorer`: any TripleScorer from one SPEC, built by the factory of its kind; wrappers compose here.

Every scorer's probabilities are Platt-calibrated on held-out training pairs, so 0.5 means "as likely attested
as not" (`plausibility.scoring.calibration`): an exported folder by its own calibration, a named offline
scorer by the fit shipped in `data/calibration/`, any other by a fit made on its first probability and cached.
`uncalibrated:<SPEC>` keeps the scorer's own map of its scores. Scores, rankings and AUC are the same either way.

Every factory imports what it needs when called, so naming one scorer never loads another's dependencies
(and `plausibility --help` imports none of them).
"""

from collections.abc import Callable
from pathlib import Path

from plausibility.devices import DType, LoadOptions
from plausibility.errors import ResourceMissingError
from plausibility.scorers.default import default_scorer
from plausibility.scorers.spec import ScorerKind, ScorerSpec, parse_spec
from plausibility.scoring.protocols import TripleScorer

# Sequences per forward pass of a language model when the options name none.
LM_BATCH_SIZE = 32

Factory = Callable[[ScorerSpec, LoadOptions], TripleScorer]


def _triples(spec: ScorerSpec) -> Path:
    """The triples file a counted baseline reads: the SPEC's, else the bundled training triples."""
    from plausibility.resources import data_dir

    return Path(spec.source) if spec.source else data_dir() / "training" / "triples.parquet"


def _ngram(spec: ScorerSpec, options: LoadOptions) -> TripleScorer:
    from plausibility.baselines.ngram import BigramCounts, NgramScorer
    from plausibility.corpus.artefacts import read_counts

    return NgramScorer(BigramCounts.from_triples(read_counts(_triples(spec))))


def _resnik(spec: ScorerSpec, options: LoadOptions) -> TripleScorer:
    from plausibility.baselines.resnik import ResnikScorer, wordnet_sense_chains
    from plausibility.corpus.artefacts import read_counts

    return ResnikScorer.fit(read_counts(_triples(spec)), wordnet_sense_chains())


def _zero_shot(spec: ScorerSpec, options: LoadOptions) -> TripleScorer:
    from plausibility.baselines.zero_shot import ZeroShotScorer
    from plausibility.resources import DEFAULT_CAUSAL_LM
    from plausibility.scoring import load_lm_scorer
    from plausibility.scoring.masked import MaskedLMScorer

    lm = load_lm_scorer(
        spec.source or DEFAULT_CAUSAL_LM,
        batch_size=options.batch_size or LM_BATCH_SIZE,
        device=options.device,
        dtype=options.dtype,
    )
    default = "masked" if isinstance(lm, MaskedLMScorer) else "pmi"
    return ZeroShotScorer(lm, spec.variant or default)


def _trained(spec: ScorerSpec, options: LoadOptions) -> TripleScorer:
    from plausibility.scorers.trained import load_trained

    return load_trained(str(spec.source), options)


def _glove_mlp(spec: ScorerSpec, options: LoadOptions) -> TripleScorer:
    from plausibility.baselines.glove_mlp import GloveMlpNet
    from plausibility.scorers.trained import load_trained

    return load_trained(str(spec.source), options, expect=GloveMlpNet)


def _shipped(spec: ScorerSpec, options: LoadOptions) -> TripleScorer:
    from plausibility.models.model_folder import is_model_folder
    from plausibility.resources import data_dir
    from plausibility.scorers.trained import load_trained

    folder = data_dir() / "models" / str(spec.source)
    if not is_model_folder(folder):
        raise ResourceMissingError(
            f"{spec.source}: the shipped model folder {folder} is absent; write it with "
            f"`plausibility export RUN_OR_CKPT {folder}`, or name a checkpoint or exported folder instead"
        )
    return load_trained(folder, options)


def _ensemble(spec: ScorerSpec, options: LoadOptions) -> TripleScorer:
    from plausibility.scoring.ensemble import EnsembleScorer

    # members always calibrated: their scales must agree before their log-odds are averaged
    loaded: dict[str, TripleScorer] = {}
    members = [build_scorer(member, options, loaded=loaded) for member in spec.members]
    return EnsembleScorer(members, [str(member) for member in spec.members], spec.weights)


FACTORIES: dict[ScorerKind, Factory] = {
    "ngram": _ngram,
    "resnik": _resnik,
    "zero-shot": _zero_shot,
    "glove-mlp": _glove_mlp,
    "checkpoint": _trained,
    "folder": _trained,
    "shipped": _shipped,
    "ensemble": _ensemble,
}


def build_scorer(
    spec: ScorerSpec, options: LoadOptions, calibrated: bool = True, loaded: dict[str, TripleScorer] | None = None
) -> TripleScorer:
    """The scorer of a parsed SPEC, loaded as `options` say, with calibrated probabilities unless told not to.

    `loaded` holds what the factories built so far, by SPEC, so that the members of one ensemble that read
    the same model (`event:conceptmax+conceptmax`) share one copy of it: wrappers never change what they wrap.

    `conceptmax:` wraps the inner scorer, over its training lexicon (else the bundled one); the maximum of
    calibrated probabilities is the calibrated probability of the maximum, so calibrating inside is enough.
    `event:` unwraps it again: the scorer inside a ConceptMax (a ConceptMax model's net), calibrated on its
    own scores of events, since the model's calibration was fitted on its maxima.
    `ensemble:` averages its members' calibrated log-odds and is calibrated again as a whole (`uncalibrated:`
    keeps the mean's own sigmoid); its members are always calibrated, since their scales must agree.
    """
    from plausibility.scoring import calibration

    if spec.kind == "uncalibrated":
        return build_scorer(spec.inner, options, False, loaded)  # type: ignore[arg-type]
    if spec.kind == "conceptmax":
        from plausibility.lexicon.training_lexicon import lexicon_of
        from plausibility.scoring.concept_max import ConceptMax

        inner = build_scorer(spec.inner, options, calibrated, loaded)  # type: ignore[arg-type]
        return inner if isinstance(inner, ConceptMax) else ConceptMax(inner, lexicon_of(inner))
    if spec.kind == "event":
        from plausibility.scoring.concept_max import ConceptMax

        inner = build_scorer(spec.inner, options, False, loaded)  # type: ignore[arg-type]
        scorer = inner.scorer if isinstance(inner, ConceptMax) else inner
        return calibration.calibrated(str(spec), scorer) if calibrated else scorer
    loaded = {} if loaded is None else loaded
    if str(spec) not in loaded:
        loaded[str(spec)] = FACTORIES[spec.kind](spec, options)
    scorer = loaded[str(spec)]
    return calibration.calibrated(str(spec), scorer) if calibrated else calibration.uncalibrated(scorer)


def load_scorer(
    spec: str | ScorerSpec | None = None,
    *,
    device: str | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
) -> TripleScorer:
    """Build the scorer a SPEC names (None: `default_scorer()`); unknown forms fail with the list of known ones.

    Args:
        spec: a SPEC string (see `plausibility.scorers.spec`) or a parsed one.
        device: `cpu`, `cuda`, `cuda:N`, `mps` or `auto`; None keeps each scorer's default.
        dtype: `float32` (the default), `bfloat16` or `float16`.
        batch_size: sequences or triples per forward pass; None keeps each scorer's default.
    """
    options = LoadOptions(device, dtype or "float32", batch_size)
    if device is not None:
        options.torch_device(device)  # a device this machine lacks fails before anything loads
    parsed = spec if isinstance(spec, ScorerSpec) else parse_spec(spec or default_scorer())
    return build_scorer(parsed, options)

"""The scorers a SPEC names as `name[:argument]`, each registered once in `KINDS`: the form its SPEC takes, how its
argument reads, the files it is built from, and its factory.

Adding a kind of scorer is its module (say `baselines/mine.py`, a `TripleScorer`) and one `Kind` here; the SPEC
grammar (`plausibility.scorers.spec`), the registry, calibration and every command then know it
(docs/development.md walks through one). Each factory imports what it needs when called, so naming one scorer
never loads another's dependencies.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plausibility.baselines.zero_shot import ZERO_SHOT_VARIANTS
from plausibility.devices import LoadOptions
from plausibility.errors import PlausibilityError, ResourceMissingError, UnknownNameError
from plausibility.lm.protocol import PLL_METRICS
from plausibility.resources.paths import bundled_triples
from plausibility.scorers.protocol import TripleScorer

# Sequences per forward pass of a language model when the options name none.
LM_BATCH_SIZE = 32


def _source(argument: str) -> dict[str, object]:
    """The fields of most kinds' SPEC: the argument, if any, is what the scorer is built from."""
    return {"source": argument or None}


def _no_files(source: str | None) -> list[Path]:
    return []


@dataclass(frozen=True)
class Kind:
    """A kind of scorer named `name[:argument]`.

    Attributes:
        form: how an unknown SPEC's error lists it (`ngram[:<triples>]`).
        build: the factory: the parsed SPEC (`ScorerSpec`) and the load options give the scorer.
        fields: the SPEC's fields (`source`, `variant`, `pll`) from the text after the first colon.
        files: the files a SPEC's scorer is built from, by its `source` (its cached calibration is keyed by them).
    """

    name: str
    form: str
    build: Callable[[Any, LoadOptions], TripleScorer]
    fields: Callable[[str], dict[str, object]] = _source
    files: Callable[[str | None], list[Path]] = field(default=_no_files)


def _triples(source: str | None) -> list[Path]:
    """The triples file a counted baseline reads: the SPEC's, else the bundled training triples."""
    return [Path(source) if source else bundled_triples()]


def _ngram(spec: Any, options: LoadOptions) -> TripleScorer:
    from plausibility.baselines.ngram import BigramCounts, NgramScorer
    from plausibility.corpus.artefacts import read_count_table

    return NgramScorer(BigramCounts.from_table(read_count_table(_triples(spec.source)[0])))


def _resnik(spec: Any, options: LoadOptions) -> TripleScorer:
    from plausibility.baselines.resnik import ResnikScorer, wordnet_sense_chains
    from plausibility.corpus.artefacts import read_counts

    return ResnikScorer.fit(read_counts(_triples(spec.source)[0]), wordnet_sense_chains())


def _zero_shot_fields(argument: str) -> dict[str, object]:
    """`[<lm>][@<variant>][?pll=<metric>]`: the LM, the formula and a masked LM's pseudo-log-likelihood."""
    argument, question, query = argument.partition("?")
    pll = None
    if question:
        key, equals, pll = query.partition("=")
        if key != "pll" or not equals:
            raise PlausibilityError(f"zero-shot option {query!r} is not known; the one option is ?pll=<metric>")
        if pll not in PLL_METRICS:
            raise UnknownNameError("PLL metric", pll, PLL_METRICS)
    lm, at, variant = argument.rpartition("@")
    if not at:
        lm, variant = argument, ""
    if variant and variant not in ZERO_SHOT_VARIANTS:
        raise UnknownNameError("zero-shot variant", variant, ZERO_SHOT_VARIANTS)
    return {"source": lm or None, "variant": variant or None, "pll": pll}


def _zero_shot(spec: Any, options: LoadOptions) -> TripleScorer:
    from plausibility.baselines.zero_shot import ZeroShotScorer
    from plausibility.lm import load_lm_scorer
    from plausibility.lm.protocol import MaskedLanguageModel
    from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM

    lm = load_lm_scorer(
        spec.source or DEFAULT_CAUSAL_LM,
        batch_size=options.batch_size or LM_BATCH_SIZE,
        device=options.device,
        dtype=options.dtype or "float32",
        pll=spec.pll,
    )
    default = "masked" if isinstance(lm, MaskedLanguageModel) else "pmi"
    return ZeroShotScorer(lm, spec.variant or default)


def _glove_mlp_fields(argument: str) -> dict[str, object]:
    if not argument:
        raise ResourceMissingError(
            "glove-mlp needs a trained checkpoint: plausibility fit --config configs/models/glove_mlp.yaml, "
            "then use glove-mlp:<path>.ckpt"
        )
    return {"source": argument}


def _glove_mlp(spec: Any, options: LoadOptions) -> TripleScorer:
    from plausibility.baselines.glove_mlp import GloveMlpNet
    from plausibility.scorers.trained import load_trained

    return load_trained(str(spec.source), options, expect=GloveMlpNet)


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("ngram", "ngram[:<triples>]", _ngram, files=_triples),
        Kind("resnik", "resnik[:<triples>]", _resnik, files=_triples),
        Kind("zero-shot", "zero-shot[:<lm>][@<variant>][?pll=<metric>]", _zero_shot, _zero_shot_fields),
        Kind("glove-mlp", "glove-mlp:<path>.ckpt", _glove_mlp, _glove_mlp_fields, lambda source: [Path(str(source))]),
    )
}

"""`ScorerSpec`: a SPEC string, the way the CLI and the Python API name a scorer, parsed once.

The forms, tried in this order:

- `ensemble:<SPEC>+<SPEC>[+...]`: the mean calibrated log-odds of the scorers named (split on `+` first, so
  `ensemble:conceptmax:zero-shot+roberta` has two members); a member written `<W>*<SPEC>` counts W times in
  the mean (`ensemble:roberta+2*zero-shot`: one third roberta, two thirds zero-shot);
- `conceptmax:<SPEC>`, `uncalibrated:<SPEC>`, `event:<SPEC>`: a wrapper around the scorer the inner SPEC names
  (every other scorer's probabilities are Platt-calibrated; `uncalibrated:` keeps the scorer's own map of its
  scores; `event:` reads a ConceptMax model's net at the event alone, without the maximum over abstractions);
- `default`, `roberta`, `conceptmax`: a model shipped under `data/models/<name>` (`plausibility models` lists them);
- `<path>.ckpt`: a checkpoint written by `plausibility fit`;
- a folder written by `plausibility export` (one holding `model.safetensors`);
- a kind registered in `plausibility.scorers.kinds`, `name[:argument]`: `ngram[:<triples>]` and
  `resnik[:<triples>]`, baselines counted from a triples file (default: the bundled one);
  `glove-mlp:<path>.ckpt`, a checkpoint that must hold a GloVe+MLP net;
  `zero-shot[:<lm>][@<variant>][?pll=<metric>]`, a language model, untrained (default: the offline causal LM,
  variant pmi for a causal LM, masked for a masked one), a masked LM's texts scored by pseudo-log-likelihood,
  `word-l2r` unless `?pll=original` says otherwise.
"""

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from plausibility.baselines.zero_shot import ZeroShotVariant
from plausibility.checksums import tree_sha256, tree_stamps
from plausibility.errors import PlausibilityError, UnknownNameError
from plausibility.lm.protocol import PLLMetric
from plausibility.models.model_folder import ModelFolder
from plausibility.resources.paths import data_dir, shipped_models
from plausibility.scorers.kinds import KINDS

# The forms every SPEC can take beside the registered kinds (`KINDS`): files, shipped names and wrappers.
ScorerKind = Literal["checkpoint", "folder", "shipped", "conceptmax", "uncalibrated", "event", "ensemble"] | str
# The wrappers take a whole SPEC after the first colon.
WRAPPERS = ("conceptmax", "uncalibrated", "event")
_WRAPPER_NEEDS = {
    "conceptmax": "conceptmax needs the scorer to wrap, e.g. conceptmax:zero-shot",
    "uncalibrated": "uncalibrated needs the scorer to wrap, e.g. uncalibrated:zero-shot",
    "event": "event needs the ConceptMax model to read at its event, e.g. event:conceptmax",
}


def known_forms() -> tuple[str, ...]:
    """Every form a SPEC can take, as an unknown SPEC's error lists them (with the shipped models' names)."""
    wrappers = ["conceptmax:<SPEC>", "ensemble:[<W>*]<SPEC>+[<W>*]<SPEC>", "event:<SPEC>", "uncalibrated:<SPEC>"]
    return (*sorted(wrappers + [kind.form for kind in KINDS.values()]), "<path>.ckpt", "<exported folder>")


@dataclass(frozen=True)
class ScorerSpec:
    """A parsed SPEC: which kind of scorer, what it reads, and the SPEC a wrapper wraps.

    Attributes:
        kind: the form (see the module docstring); `shipped` is the bare name of a shipped model.
        source: the file, folder, LM or shipped name the scorer is built from (None: the scorer's default).
        variant: the zero-shot formula (`raw`, `pmi`, `pmi-passive`, `masked`); None picks it from the LM's kind.
        pll: a zero-shot masked LM's pseudo-log-likelihood metric (None: `word-l2r`, the default).
        inner: the SPEC a `conceptmax`, `uncalibrated` or `event` wrapper wraps.
        members: the SPECs an `ensemble` averages, in order.
        weights: each member's weight in that mean, aligned with `members` (empty: all 1).
    """

    kind: ScorerKind
    source: str | None = None
    variant: ZeroShotVariant | None = None
    pll: PLLMetric | None = None
    inner: "ScorerSpec | None" = None
    members: tuple["ScorerSpec", ...] = ()
    weights: tuple[float, ...] = ()

    def __str__(self) -> str:
        """The SPEC as a string that parses back to this one."""
        if self.members:
            weights = self.weights or (1.0,) * len(self.members)
            return "ensemble:" + "+".join(
                (f"{weight:g}*" if weight != 1 else "") + str(member)
                for weight, member in zip(weights, self.members, strict=True)
            )
        if self.inner is not None:
            return f"{self.kind}:{self.inner}"
        if self.kind in ("checkpoint", "folder", "shipped"):
            return str(self.source)
        text = self.kind + (f":{self.source}" if self.source else "")
        if self.variant:
            text += f"@{self.variant}" if self.source else f":@{self.variant}"
        if self.pll:
            text += f"?pll={self.pll}" if self.source or self.variant else f":?pll={self.pll}"
        return text


def _weighted_member(part: str) -> tuple[float, ScorerSpec]:
    """`2*zero-shot` -> (2.0, zero-shot); a part with no number before its first `*` has weight 1."""
    number, star, rest = part.partition("*")
    if not star:
        return 1.0, parse_spec(part)
    try:
        weight = float(number)
    except ValueError:  # a `*` inside a SPEC, not after a weight
        return 1.0, parse_spec(part)
    if not 0 < weight < float("inf"):
        raise PlausibilityError(
            f"ensemble weight {number.strip()!r} in {part.strip()!r} must be a positive number, e.g. 2*zero-shot"
        )
    return weight, parse_spec(rest)


def parse_spec(text: str) -> ScorerSpec:
    """The `ScorerSpec` of a SPEC string; an unknown form fails in one line with the known ones.

    Only the file system is consulted (is it a folder?); nothing is loaded.
    """
    spec = text.strip()
    if not spec:
        raise PlausibilityError("empty model SPEC; give one, e.g. zero-shot or ngram")
    name, colon, argument = spec.partition(":")
    if name == "ensemble":
        parts = [part for part in argument.split("+") if part.strip()]
        if len(parts) < 2:
            raise PlausibilityError("ensemble needs two or more scorers joined by +, e.g. ensemble:roberta+zero-shot")
        weights, members = zip(*(_weighted_member(part) for part in parts), strict=True)
        if all(weight == 1 for weight in weights):
            return ScorerSpec("ensemble", members=tuple(members))
        return ScorerSpec("ensemble", members=tuple(members), weights=tuple(weights))
    if name in WRAPPERS and colon:
        if not argument.strip():
            raise PlausibilityError(_WRAPPER_NEEDS[name])
        return ScorerSpec(name, inner=parse_spec(argument))  # type: ignore[arg-type]
    if spec in shipped_models():
        return ScorerSpec("shipped", spec)
    if spec in WRAPPERS:
        raise PlausibilityError(_WRAPPER_NEEDS[spec])
    # `glove-mlp:<path>.ckpt` names a kind, not a bare checkpoint
    if spec.endswith(".ckpt") and name not in KINDS:
        return ScorerSpec("checkpoint", spec)
    if Path(spec).is_dir() and (ModelFolder(spec).holds_net or name not in KINDS):
        return ScorerSpec("folder", spec)
    if name not in KINDS:
        raise UnknownNameError("model", spec, (*known_forms(), *shipped_models()))
    return ScorerSpec(name, **KINDS[name].fields(argument))  # type: ignore[arg-type]


def canonical(spec: ScorerSpec) -> ScorerSpec:
    """The SPEC of what a scorer is, however it was spelled: an ensemble's members in sorted order, each in its
    canonical form, with weights that sum to 1 (`ensemble:2*b+a+a` and `ensemble:a+a+2*b` are one scorer)."""
    if spec.inner is not None:
        return replace(spec, inner=canonical(spec.inner))
    if not spec.members:
        return spec
    weights = spec.weights or (1.0,) * len(spec.members)
    total = sum(weights)
    # rounded, so that weights which differ only by float noise (0.1 + 0.2 against 0.3) name one scorer
    pairs = sorted(
        (str(canonical(member)), round(weight / total, 9)) for member, weight in zip(spec.members, weights, strict=True)
    )
    return ScorerSpec(
        "ensemble", members=tuple(parse_spec(member) for member, _ in pairs), weights=tuple(w for _, w in pairs)
    )


def named_files(spec: ScorerSpec) -> list[Path]:
    """The files and folders a SPEC's scorer is built from: checkpoints, model folders, triples files."""
    if spec.inner is not None:
        return named_files(spec.inner)
    if spec.members:
        return [path for member in spec.members for path in named_files(member)]
    if spec.kind in ("checkpoint", "folder") and spec.source:
        return [Path(spec.source)]
    if spec.kind == "shipped" and spec.source:
        return [data_dir() / "models" / spec.source]
    return KINDS[spec.kind].files(spec.source) if spec.kind in KINDS else []


def fingerprint(spec: ScorerSpec) -> str:
    """What a scorer is and what it was built from: its canonical SPEC and the content hash of every file it names.

    A retrained checkpoint, a re-exported folder or a rebuilt triples file changes it; a SPEC spelled
    another way does not. Cached calibrations and saved report rows are keyed by it.
    """
    files = {str(path): tree_sha256(path) if path.exists() else None for path in named_files(spec)}
    return hashlib.sha256(json.dumps([str(canonical(spec)), files], sort_keys=True).encode()).hexdigest()


def stamps(spec: ScorerSpec) -> tuple[tuple[str, int, int], ...]:
    """The size and modification time of every file the SPEC names (see `named_files`)."""
    return tuple(stamp for path in named_files(spec) if path.exists() for stamp in tree_stamps(path))

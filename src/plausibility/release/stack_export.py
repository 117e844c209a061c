"""A stacked model's folder, fitted: one logistic regression over its features on the judged valid halves of
Pep-3k, 20Q and plain, which is also its float32 calibration, and a Platt map for its language model in
bfloat16 fitted on the same events.

The plain half (160 events a person judges at a glance) may weigh more than one Pep-3k or 20Q event, since
those two halves hold 25 times as many; the weight is chosen on the valid halves (`experiments/default_stack`).
"""

from pathlib import Path

import numpy as np
import yaml

from plausibility.benchmarks.registry import named_set
from plausibility.corpus.artefacts import read_count_table
from plausibility.errors import PlausibilityError
from plausibility.lexicon.animacy import Animacy
from plausibility.lexicon.training_lexicon import lexicon_of
from plausibility.models.model_folder import CONFIG
from plausibility.resources.paths import bundled_triples
from plausibility.scorers.calibration import Calibration, fit_logistic, fit_platt
from plausibility.scorers.registry import build_scorer
from plausibility.scorers.restriction import SubjectRestriction
from plausibility.scorers.shipped import STACK_FORMAT
from plausibility.scorers.spec import parse_spec
from plausibility.scorers.stack import RESTRICTION, StackScorer, feature_member
from plausibility.scorers.stack_folder import RESTRICTION_FILE, calibration_file
from plausibility.triple import Triple
from plausibility.version import __version__

# The judged halves a stack is fitted on, and the precisions its language model gets a calibration for.
FITTED_ON = ("pep3k", "20q", "plain")
PRECISIONS = ("float32", "bfloat16")


def parse_stack_source(source: str) -> list[str]:
    """`stack:F+F+...` -> its features, each a member SPEC, `reversal:<SPEC>` or `restriction`."""
    features = [part.strip() for part in source.removeprefix("stack:").split("+") if part.strip()]
    if not features:
        raise PlausibilityError("a stack needs features joined by +, e.g. stack:ngram+reversal:ngram+restriction")
    return features


def judged_valid_events(plain_weight: float) -> tuple[list[Triple], np.ndarray, np.ndarray, str]:
    """The valid halves' events as written, their labels, each event's weight in the fit, and what they are."""
    triples, labels, weights, counts = [], [], [], []
    for name in FITTED_ON:
        table = named_set(name, "valid").table
        triples += [Triple(s, v, o) for s, v, o in zip(table.subject, table.verb, table.object, strict=True)]
        labels.append(table["label"].to_numpy())
        weights.append(np.full(len(table), plain_weight if name == "plain" else 1.0))
        counts.append(f"{len(table):,} of {name} valid")
    described = f"the judged events of {', '.join(counts)} (a plain event weighing {plain_weight:g})"
    return triples, np.concatenate(labels), np.concatenate(weights), described


def _write_config(folder: Path, config: dict) -> None:
    (folder / CONFIG).write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")


def fit_stack_folder(
    staging: Path, features: list[str], identity: dict[str, str], summary: str | None, plain_weight: float
) -> tuple[dict, StackScorer]:
    """Write a stack's config (its coefficients fitted), restriction and calibrations into `staging`; returns
    the config and the stack as it loads in float32, uncalibrated, to measure."""
    members = list(dict.fromkeys(member for f in features if (member := feature_member(f)) is not None))
    # a stack without a language model runs the same in either precision: float32's calibration is all it needs
    precisions = PRECISIONS if any(parse_spec(member).kind == "zero-shot" for member in members) else ("float32",)
    if RESTRICTION in features:
        animacy = Animacy(lexicon_of(None).hierarchy)
        SubjectRestriction.count(read_count_table(bundled_triples()), animacy).save(staging / RESTRICTION_FILE)
    config = {
        "format": STACK_FORMAT,
        **identity,
        "summary": summary or "a logistic regression over " + ", ".join(features),
        "plausibility_version": __version__,
        "members": members,
        "features": [{"feature": feature, "coefficient": 0.0} for feature in features],
        "intercept": 0.0,
        "precisions": list(precisions),
    }
    _write_config(staging, config)
    triples, labels, weights, described = judged_valid_events(plain_weight)
    values = build_scorer(f"uncalibrated:{staging}", dtype="float32").feature_values(triples)
    # Unpenalised, as a Platt fit is: the regression is the model's float32 calibration.
    coefficients, intercept = fit_logistic(values, labels, weights)
    for feature, coefficient in zip(config["features"], coefficients, strict=True):
        feature["coefficient"] = float(coefficient)
    config["intercept"] = intercept
    _write_config(staging, config)
    Calibration(1.0, 0.0, len(labels), f"{described}, in the regression's own fit", "judgements").save(
        staging / calibration_file("float32")
    )
    if "bfloat16" in precisions:
        scores = build_scorer(f"uncalibrated:{staging}", dtype="bfloat16").score(triples)
        fit_platt(scores, labels, f"{described}, its language model in bfloat16", "judgements", weights).save(
            staging / calibration_file("bfloat16")
        )
    stack = build_scorer(f"uncalibrated:{staging}", dtype="float32")
    assert isinstance(stack, StackScorer)
    return config, stack

"""An ensemble's folder: a `config.yaml` naming its SPEC, members and weights (beside what export measures)."""

from pathlib import Path

import yaml

from plausibility.models.model_folder import CONFIG
from plausibility.scorers.shipped import ENSEMBLE_FORMAT
from plausibility.scorers.spec import parse_spec
from plausibility.version import __version__


def write_ensemble_config(folder: Path, spec: str, identity: dict[str, str], summary: str | None) -> dict:
    """Write `config.yaml` of the ensemble `spec` into `folder`; returns the config."""
    parsed = parse_spec(spec)
    weights = parsed.weights or (1.0,) * len(parsed.members)
    members = [{"spec": str(member), "weight": weight} for member, weight in zip(parsed.members, weights, strict=True)]
    names = ", ".join(member["spec"] for member in members)
    config = {
        "format": ENSEMBLE_FORMAT,
        **identity,
        "summary": summary or f"an ensemble of {names}: the weighted mean of their calibrated log-odds",
        "plausibility_version": __version__,
        "spec": str(parsed),
        "members": members,
    }
    (folder / CONFIG).write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return config

"""Where a scorer's calibration comes from: shipped with the package, cached from an earlier fit, or fitted now.

Calibrations are found by what a scorer is, not by how its SPEC was spelled (`canonical`): the default's
ensemble written out in another member order finds the default's own calibration. A shipped model's folder
holds its calibration (fitted on the human-judged valid halves); `data/calibration/` ships the training-pair
fits of named offline scorers; any other scorer is fitted on `DEFAULT_CALIBRATION_PAIRS` bundled training pairs
the first time it is asked for a probability, and the fit is cached under a key that changes when anything it
was built from changes (`fingerprint`).
"""

import hashlib
import json
import re
from pathlib import Path

from plausibility.checksums import file_sha256
from plausibility.errors import ResourceChangedError
from plausibility.models.model_folder import CALIBRATION
from plausibility.resources.paths import bundled_pairs, cache_dir, data_dir, shipped_models
from plausibility.scorers.calibration import Calibration, fit_calibration
from plausibility.scorers.protocol import HeldOutScorer, TripleScorer
from plausibility.scorers.shipped import ensemble_spec
from plausibility.scorers.spec import ScorerSpec, canonical, fingerprint, parse_spec, stamps

# What a scorer without a calibration of its own is fitted on: a seeded slice of the bundled training pairs.
DEFAULT_CALIBRATION_PAIRS = 1000


def shipped_fit_path(spec: ScorerSpec) -> Path:
    """Where the training-pair fit of a named offline scorer ships: `data/calibration/<canonical SPEC>.json`."""
    # `:` and `*` (an ensemble member's weight) are not allowed in every file system's names
    name = re.sub(r"[^A-Za-z0-9@.+=-]", "_", str(canonical(spec)).replace("*", "x"))
    return data_dir() / "calibration" / f"{name}.json"


def shipped_calibration(spec: ScorerSpec) -> Calibration | None:
    """The calibration that ships for this scorer: a shipped ensemble's own (the default's), else a shipped fit."""
    wanted = str(canonical(spec))
    if spec.members:
        for name in shipped_models():
            folder = data_dir() / "models" / name
            written = ensemble_spec(folder)
            if written is not None and str(canonical(parse_spec(written))) == wanted:
                return Calibration.load(folder / CALIBRATION)
    path = shipped_fit_path(spec)
    return Calibration.load(path) if path.is_file() else None


def calibration_for(
    spec: ScorerSpec, scorer: TripleScorer, loaded_from: tuple[tuple[str, int, int], ...] | None = None
) -> Calibration:
    """The calibration of SPEC's scorer: shipped with the package, cached from an earlier fit, or fitted now.

    A fit is cached under the cache folder, keyed by the scorer's `fingerprint` (its canonical SPEC and the
    content of every file it names) and by the content of the pairs it was fitted on, so a retrained
    checkpoint or a rebuilt training set is fitted afresh. A model trained on the bundled pairs has seen
    part of the slice; an exported folder's own calibration says how much.

    Args:
        loaded_from: the `stamps` of the files the scorer was built from, when it was built: a file changed
            since (a model retrained or re-exported in place) fails here, rather than fit the old model and
            cache the fit under the new files' content.
    """
    shipped = shipped_calibration(spec)
    if shipped is not None:
        return shipped
    if loaded_from is not None and stamps(spec) != loaded_from:
        changed = sorted({path for path, *_ in set(loaded_from) ^ set(stamps(spec))})
        raise ResourceChangedError(
            f"{changed[0]}: changed on disk since the model was loaded from it; load the model again"
        )
    pairs = bundled_pairs()
    held_out = isinstance(scorer, HeldOutScorer)  # keyed apart from in-sample fits
    key = json.dumps([fingerprint(spec), file_sha256(pairs), DEFAULT_CALIBRATION_PAIRS, held_out])
    cached = cache_dir() / "calibration" / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"
    if cached.is_file():
        return Calibration.load(cached)
    calibration = fit_calibration(scorer, pairs, DEFAULT_CALIBRATION_PAIRS)
    calibration.save(cached)
    return calibration

"""A stacked model's folder: `config.yaml` (its members, each feature's coefficient, the intercept),
`restriction.json` (the subject restriction's counts) and one calibration per precision its language model
may run in (`calibration.json` for float32, `calibration-bfloat16.json` for bfloat16).

A language model's log-probabilities move a little in bfloat16 (Spearman .999 with float32's, up to about a
nat on a sentence), so the regression's score does too; each precision's own Platt map keeps the probability a
user reads the same on a CPU with bfloat16 units and on one without.
"""

from collections.abc import Mapping
from pathlib import Path

from plausibility.devices import DType
from plausibility.lexicon.animacy import Animacy
from plausibility.lexicon.training_lexicon import lexicon_of
from plausibility.models.model_folder import CALIBRATION
from plausibility.scorers.calibration import Calibration
from plausibility.scorers.protocol import TripleScorer
from plausibility.scorers.restriction import SubjectRestriction
from plausibility.scorers.stack import RESTRICTION, StackScorer

RESTRICTION_FILE = "restriction.json"


def calibration_file(precision: str) -> str:
    """The file a precision's calibration is kept in."""
    return CALIBRATION if precision == "float32" else f"calibration-{precision}.json"


def stack_calibration(folder: Path, precision: str) -> Calibration:
    """The calibration of the precision the stack's language model runs in; float32's for one it ships none for
    (float16, on a GPU)."""
    path = folder / calibration_file(precision)
    return Calibration.load(path if path.is_file() else folder / CALIBRATION)


def load_stack(folder: Path, config: dict, members: Mapping[str, TripleScorer], precision: DType) -> StackScorer:
    """The stack a folder's config describes, over members already built (calibrated, as an ensemble's are)."""
    features = [str(feature["feature"]) for feature in config["features"]]
    restriction = animacy = None
    if RESTRICTION in features:
        restriction = SubjectRestriction.load(folder / RESTRICTION_FILE)
        # a noun's senses and their hypernyms do not depend on a lexicon's filters: a member's hierarchy, already
        # loaded, serves (else the bundled lexicon's)
        own = next((member.lexicon for member in members.values() if member.lexicon is not None), None)
        animacy = Animacy(lexicon_of(own).hierarchy)
    return StackScorer(
        members,
        features,
        [float(feature["coefficient"]) for feature in config["features"]],
        float(config["intercept"]),
        restriction,
        animacy,
        precision,
    )

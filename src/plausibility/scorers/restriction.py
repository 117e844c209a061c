"""A selectional restriction on subjects: how much a verb wants an animate subject, against the subject's animacy.

Counted once from the bundled training triples (every attested subject whose first WordNet sense is known,
weighted by its count) and shipped in a stacked model's folder, so that loading it reads a small JSON file
rather than the triples. The feature is how far the verb's share of animate subjects is beyond one half, where
the event's subject is not animate, else 0: "rock eat sandwich" gets .18 (70% of eaters are people or animals),
"person eat sandwich", "rock cover field" (3% of what covers is animate) and a subject WordNet lacks get 0.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from plausibility.errors import DataFormatError
from plausibility.lexicon.animacy import ANIMATE_WORDS, Animacy
from plausibility.triple import Triple

# Pseudo-subjects of the overall share that every verb's share is smoothed with: a verb seen with two
# subjects says little about what it wants.
SMOOTHING = 5.0
# Only a verb most of whose subjects are people or animals restricts its subject: the feature is its share
# beyond this. Chosen on the valid halves against the share itself, beyond .3 or .6, and a step at .5
# (`experiments/default_stack`): the share itself also marks down plausible events with inanimate subjects
# of verbs that take any subject, which Pep-3k is full of.
MOSTLY = 0.5
RESTRICTION_FORMAT = "plausibility-subject-restriction/1"


@dataclass(frozen=True)
class SubjectRestriction:
    """Each verb's count of animate subjects and of subjects of known animacy, and the share over all verbs.

    Attributes:
        counts: verb -> (animate subjects, subjects of known animacy), each weighted by its triple's count.
        overall: the share of animate subjects over every verb, what an unseen verb's share is.
    """

    counts: dict[str, tuple[int, int]]
    overall: float

    @classmethod
    def count(cls, triples: pd.DataFrame, animacy: Animacy) -> "SubjectRestriction":
        """Counted from a table of subject, verb, object, count (`read_count_table`)."""
        animate = triples["subject"].map(animacy)
        known = triples[animate.notna()].assign(animate=animate[animate.notna()].astype(bool))
        weighted = known.assign(animate=known["animate"] * known["count"])
        sums = weighted.groupby("verb")[["animate", "count"]].sum()
        counts = {
            str(verb): (int(animate), int(total))
            for verb, animate, total in zip(sums.index, sums["animate"], sums["count"], strict=True)
        }
        return cls(counts, float(sums["animate"].sum() / max(sums["count"].sum(), 1)))

    def share(self, verb: str) -> float:
        """The verb's smoothed share of animate subjects."""
        animate, known = self.counts.get(verb, (0, 0))
        return (animate + SMOOTHING * self.overall) / (known + SMOOTHING)

    def feature(self, triples: Sequence[Triple], animacy: Animacy) -> np.ndarray:
        """The verb's share beyond `MOSTLY` where the subject is not animate, else 0; shape (len(triples),)."""
        shares = [self.share(t.verb) if animacy(t.subject) is False else 0.0 for t in triples]
        return np.maximum(np.asarray(shares, dtype=np.float64) - MOSTLY, 0.0)

    def reason(self, triple: Triple) -> str:
        """In a person's words, from the counts: why the subject does not fit the verb."""
        animate, known = self.counts.get(triple.verb, (0, 0))
        if not known:
            return f"'{triple.subject}' is neither a person nor an animal, and '{triple.verb}' has no attested subjects"
        return (
            f"{animate / known:.0%} of the {known:,} attested subjects of '{triple.verb}' in the training triples are "
            f"{ANIMATE_WORDS}, and '{triple.subject}' is neither"
        )

    def save(self, path: Path) -> None:
        record = {"format": RESTRICTION_FORMAT, "overall": self.overall, "counts": dict(sorted(self.counts.items()))}
        path.write_text(json.dumps(record, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> "SubjectRestriction":
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            if record.get("format") != RESTRICTION_FORMAT:
                raise ValueError(f"format {record.get('format')!r}")
            counts = {str(verb): (int(a), int(k)) for verb, (a, k) in record["counts"].items()}
            return cls(counts, float(record["overall"]))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise DataFormatError(f"{path}: not a subject restriction ({error}); reinstall plausibility") from error

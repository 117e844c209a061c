"""Flags for words a scorer may know little about: absent from WordNet, or never seen in training."""

from collections.abc import Sequence

from plausibility.lexicon.hierarchy import Hierarchy
from plausibility.triple import Triple


class CoverageFlags:
    """An annotator adding a `flags` column: comma-joined, empty when every word is covered.

    Flags are `subject-not-in-wordnet` / `object-not-in-wordnet` (no noun sense, so no abstraction in
    that slot) and, when the training nouns are known, `subject-unseen-in-training` /
    `object-unseen-in-training`. Flagged triples are still scored: the flag only says how far to trust it.
    """

    def __init__(self, hierarchy: Hierarchy, training_nouns: Sequence[str] | None = None) -> None:
        self.hierarchy = hierarchy
        self.training_nouns = None if training_nouns is None else frozenset(training_nouns)

    def flags(self, triple: Triple) -> list[str]:
        found = []
        for slot, word in (("subject", triple.subject), ("object", triple.object)):
            if not self.hierarchy.senses(word):
                found.append(f"{slot}-not-in-wordnet")
            if self.training_nouns is not None and word not in self.training_nouns:
                found.append(f"{slot}-unseen-in-training")
        return found

    def __call__(self, triples: Sequence[Triple]) -> dict[str, list[object]]:
        return {"flags": [",".join(self.flags(triple)) for triple in triples]}

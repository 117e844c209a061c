"""Flags for words a scorer may know little about: absent from WordNet, or never seen in training."""

from collections.abc import Sequence

from plausibility.lexicon.hierarchy import Hierarchy
from plausibility.scorers.protocol import TripleScorer
from plausibility.triple import Triple


class CoverageFlags:
    """An annotator adding a `flags` column: which words of each scored triple a scorer may know little about.

    Flags, comma-joined and empty when every word is covered, are `subject-not-in-wordnet` /
    `object-not-in-wordnet` (no noun sense, so no abstraction in that slot) and, when the training nouns are
    known, `subject-unseen-in-training` / `object-unseen-in-training`. Flagged triples are still scored: the
    flag only says how far to trust it. Give it the triples as scored (`EventLemmas`), so `apples` is not
    flagged as unseen where `apple` was seen.
    """

    def __init__(self, hierarchy: Hierarchy, training_nouns: Sequence[str] | None = None) -> None:
        self.hierarchy = hierarchy
        self.training_nouns = None if training_nouns is None else frozenset(training_nouns)

    def flags(self, triple: Triple) -> list[str]:
        found = []
        for slot, word in (("subject", triple.subject), ("object", triple.object)):
            if self.hierarchy.lemma(word) is None:
                found.append(f"{slot}-not-in-wordnet")
            if self.training_nouns is not None and word not in self.training_nouns:
                found.append(f"{slot}-unseen-in-training")
        return found

    def __call__(self, triples: Sequence[Triple]) -> dict[str, list[object]]:
        return {"flags": [",".join(self.flags(triple)) for triple in triples]}


def coverage_flags(scorer: TripleScorer) -> CoverageFlags:
    """The flags for a scorer: WordNet as its grids' lexicon reads it, and its training nouns where it has them.

    A scorer trained on pairs keeps its lexicon (ConceptMax: the wrapped scorer's); an untrained one has none,
    so no word is flagged as unseen in training.
    """
    from plausibility.query.explain import grid_source

    searched, lexicon = grid_source(scorer)
    trained = searched.lexicon
    return CoverageFlags(lexicon.hierarchy, None if trained is None else trained.vocabulary)

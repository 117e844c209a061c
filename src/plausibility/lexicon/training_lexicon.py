"""The lexicon a scorer's grids are laid out in: WordNet filtered by training nouns, a min depth, a WSD."""

from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import TYPE_CHECKING

from plausibility.errors import PlausibilityError

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstractor
    from plausibility.lexicon.hierarchy import Concept, Hierarchy


@dataclass(frozen=True)
class TrainingLexicon:
    """Hierarchy, abstractor and synset inventory built from the training nouns.

    The thesis drops synsets whose lemma never occurs in the training corpus (6.5); a model stores its
    training nouns so the same filter applies when it is evaluated. WordNet is loaded only when first
    used, so models that need no lexicon never pay for it.

    Attributes:
        origin: whose nouns these are, in words, for result files (not part of equality).
    """

    vocabulary: tuple[str, ...] | None = None
    min_depth: int = 4
    wsd: str = "mfs"
    origin: str = field(default="the model's training nouns", compare=False)

    @classmethod
    def over(cls, hierarchy: "Hierarchy", wsd: str = "mfs", origin: str = "a given hierarchy") -> "TrainingLexicon":
        """A lexicon over a hierarchy already built (a hand-made one, or a loaded table with its filters)."""
        vocabulary = None if hierarchy.vocabulary is None else tuple(sorted(hierarchy.vocabulary))
        lexicon = cls(vocabulary, hierarchy.min_depth, wsd, origin)
        lexicon.__dict__["hierarchy"] = hierarchy  # what the cached property would build, given instead
        return lexicon

    @cached_property
    def hierarchy(self) -> "Hierarchy":
        from plausibility.lexicon.hierarchy import Hierarchy

        return Hierarchy.load(vocabulary=self.vocabulary, min_depth=self.min_depth)

    @cached_property
    def abstractor(self) -> "Abstractor":
        from plausibility.lexicon.abstractions import Abstractor

        return Abstractor(self.hierarchy, wsd=self.wsd)

    def concepts(self) -> list["Concept"]:
        """Every synset on the chain of any sense of a training noun, sorted by synset name.

        Only nouns WordNet lists as they are count (no morphological normalisation), so the inventory, and
        with it the size of a trained ConceptInject's synset table, stays what it was when the model trained.
        """
        if self.vocabulary is None:
            raise PlausibilityError(
                "the synset inventory needs the training nouns; train through `plausibility fit`, which links them"
            )
        listed = [word for word in self.vocabulary if self.hierarchy.lemma(word) == word.replace(" ", "_")]
        found = {
            concept.synset: concept
            for word in listed
            for sense in self.hierarchy.senses(word)
            for concept in self.hierarchy.chain(sense)
        }
        return [found[name] for name in sorted(found)]

    def describe(self) -> dict[str, object]:
        """What result files record of the lexicon a measurement used."""
        return {
            "vocabulary": self.origin if self.vocabulary is not None else "all of WordNet",
            "vocabulary_size": None if self.vocabulary is None else len(self.vocabulary),
            "min_depth": self.min_depth,
            "wsd": self.wsd,
        }


@cache
def bundled_lexicon() -> TrainingLexicon:
    """The lexicon of a model trained on the bundled pairs, for scorers that have none of their own.

    Searching an untrained scorer's abstractions (ConceptMax around it, explanations, consistency) keeps only
    the synsets a trained model would keep, so grids are the same size and the model rows stay comparable.
    """
    from plausibility.corpus.artefacts import read_pair_nouns
    from plausibility.resources.paths import bundled_pairs

    nouns = read_pair_nouns(bundled_pairs())
    return TrainingLexicon(tuple(nouns), origin="the bundled training nouns")


def lexicon_of(own: TrainingLexicon | None, wsd: str | None = None, min_depth: int | None = None) -> TrainingLexicon:
    """The one rule for the lexicon of a scorer's grids: its own (`scorer.lexicon`), else the bundled one.

    `wsd` and `min_depth` override the lexicon's own choices where given; every command that lays out grids
    (consistency, report, score --explain, the demo) asks this function, and writes `describe()` beside its
    results.
    """
    lexicon = own or bundled_lexicon()
    changes = {name: value for name, value in (("wsd", wsd), ("min_depth", min_depth)) if value is not None}
    if not changes or all(getattr(lexicon, name) == value for name, value in changes.items()):
        return lexicon
    return replace(lexicon, **changes)

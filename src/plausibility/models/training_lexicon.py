"""The WordNet hierarchy as a model saw it in training: filtered by the nouns of its training pairs."""

from dataclasses import dataclass
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
    """

    vocabulary: tuple[str, ...] | None = None
    min_depth: int = 4
    wsd: str = "mfs"

    @cached_property
    def hierarchy(self) -> "Hierarchy":
        from plausibility.lexicon.hierarchy import Hierarchy

        return Hierarchy.load(vocabulary=self.vocabulary, min_depth=self.min_depth)

    @cached_property
    def abstractor(self) -> "Abstractor":
        from plausibility.lexicon.abstractions import Abstractor

        return Abstractor(self.hierarchy, wsd=self.wsd)

    def concepts(self) -> list["Concept"]:
        """Every synset on the chain of any sense of a training noun, sorted by synset name."""
        if self.vocabulary is None:
            raise PlausibilityError(
                "the synset inventory needs the training nouns; train through `plausibility fit`, which links them"
            )
        found = {
            concept.synset: concept
            for word in self.vocabulary
            for sense in self.hierarchy.senses(word)
            for concept in self.hierarchy.chain(sense)
        }
        return [found[name] for name in sorted(found)]


@cache
def bundled_lexicon() -> TrainingLexicon:
    """The lexicon of a model trained on the bundled pairs, for scorers that have none of their own.

    Searching an untrained scorer's abstractions (ConceptMax around it, explanations) keeps only the synsets
    a trained model would keep, so grids are the same size and the model rows stay comparable.
    """
    from plausibility.models.datamodule import PairsDataModule

    return TrainingLexicon(tuple(PairsDataModule().vocabulary))


def lexicon_of(scorer: object) -> TrainingLexicon:
    """The lexicon a scorer was trained with (its `lexicon`), else the bundled one."""
    return getattr(scorer, "lexicon", None) or bundled_lexicon()

"""Abstractions of an event: its subject and object replaced by the hypernyms along their chains."""

from collections.abc import Sequence
from dataclasses import dataclass

from plausibility.lexicon.hierarchy import Concept, Hierarchy
from plausibility.lexicon.wsd import Disambiguator, WsdMethod
from plausibility.triple import Triple

Chains = tuple[tuple[Concept, ...], tuple[Concept, ...]]


@dataclass(frozen=True)
class AbstractionGrid:
    """Every (subject abstraction, verb, object abstraction) of one event, most general first per axis.

    The last entry of each axis is the surface word itself, standing for its own sense (so the sense is
    not listed twice); its depth is that sense's depth, or 0 for a word WordNet lacks, whose axis then
    holds the word alone.
    """

    event: Triple
    subjects: tuple[str, ...]
    objects: tuple[str, ...]
    subject_depths: tuple[int, ...]
    object_depths: tuple[int, ...]

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.subjects), len(self.objects)

    def triples(self) -> list[Triple]:
        """Row-major: for each subject, every object (`Triple(s, event.verb, o)`)."""
        return [Triple(s, self.event.verb, o) for s in self.subjects for o in self.objects]


def _axis(
    word: str, sense: str | None, chain: tuple[Concept, ...], hierarchy: Hierarchy
) -> tuple[list[str], list[int]]:
    above = [concept for concept in chain if concept.synset != sense]
    depth = 0 if sense is None else hierarchy.concept(sense).depth
    return [c.text for c in above] + [word], [c.depth for c in above] + [depth]


class Abstractor:
    """Disambiguates events and lays out their abstraction grids over a hierarchy's filtered chains.

    Args:
        hierarchy: chains and filters (its `min_depth` and `vocabulary` decide which hypernyms appear).
        wsd: how the subject and object senses are chosen ("mfs" or "gloss").
    """

    def __init__(self, hierarchy: Hierarchy, wsd: WsdMethod = "mfs") -> None:
        self.hierarchy = hierarchy
        self.wsd = wsd
        self.disambiguator = Disambiguator(hierarchy, wsd)

    def chains(self, triple: Triple) -> Chains:
        """Filtered chains of the subject's and the object's senses (empty for a word WordNet lacks)."""
        return self._chains(self.disambiguator([triple])[0])

    def grid(self, triple: Triple) -> AbstractionGrid:
        return self.grids([triple])[0]

    def grids(self, triples: Sequence[Triple]) -> list[AbstractionGrid]:
        """One grid per triple, in input order; senses of all triples are chosen in one batch."""
        grids = []
        for triple, senses in zip(triples, self.disambiguator(triples), strict=True):
            subject_chain, object_chain = self._chains(senses)
            subjects, subject_depths = _axis(triple.subject, senses[0], subject_chain, self.hierarchy)
            objects, object_depths = _axis(triple.object, senses[1], object_chain, self.hierarchy)
            grids.append(
                AbstractionGrid(triple, tuple(subjects), tuple(objects), tuple(subject_depths), tuple(object_depths))
            )
        return grids

    def _chains(self, senses: tuple[str | None, str | None]) -> Chains:
        subject, obj = senses
        return (
            () if subject is None else self.hierarchy.chain(subject),
            () if obj is None else self.hierarchy.chain(obj),
        )

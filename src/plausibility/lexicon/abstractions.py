"""Abstractions of an event: its subject and object senses replaced by the hypernyms along their chains."""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from plausibility.lexicon.hierarchy import Concept, Hierarchy
from plausibility.lexicon.wsd import Disambiguator, WsdMethod
from plausibility.triple import Triple

Chains = tuple[tuple[Concept, ...], tuple[Concept, ...]]


@dataclass(frozen=True, slots=True)
class Abstraction:
    """A verb with a subject concept and an object concept: one cell of an event's grid.

    It keeps the senses of the event's chains, so a scorer that reads senses never has to guess them
    again from the words; `triple` is the text for scorers that read text.
    """

    subject: Concept
    verb: str
    object: Concept

    @property
    def triple(self) -> Triple:
        return Triple(self.subject.text, self.verb, self.object.text)

    def __str__(self) -> str:
        return str(self.triple)


@dataclass(frozen=True)
class AbstractionGrid:
    """Every (subject concept, verb, object concept) of one event, most general first on each axis.

    The last concept of each axis is the event's own word standing for its chosen sense (so the sense is
    not listed twice); a word WordNet lacks stands alone on its axis, with no synset and depth 0. Cell
    `(i, j)`'s own abstractions are the cells `(i', j')` with `i' <= i` and `j' <= j`: the prefixes of the
    event's chains, whatever sense a cell's word would have on its own.
    """

    event: Triple
    subjects: tuple[Concept, ...]
    objects: tuple[Concept, ...]

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.subjects), len(self.objects)

    @property
    def subject_depths(self) -> tuple[int, ...]:
        return tuple(concept.depth for concept in self.subjects)

    @property
    def object_depths(self) -> tuple[int, ...]:
        return tuple(concept.depth for concept in self.objects)

    def cells(self) -> list[Abstraction]:
        """Row-major: for each subject concept, every object concept; the event itself is the last cell."""
        return list(self._cells)

    def triples(self) -> list[Triple]:
        """The cells as text, in the same order."""
        return list(self._triples)

    # Built once per grid (copied out as lists): scoring, ranking and explaining each walk the cells several times.
    @cached_property
    def _cells(self) -> tuple[Abstraction, ...]:
        return tuple(Abstraction(s, self.event.verb, o) for s in self.subjects for o in self.objects)

    @cached_property
    def _triples(self) -> tuple[Triple, ...]:
        return tuple(cell.triple for cell in self._cells)


def _axis(word: str, sense: str | None, chain: tuple[Concept, ...], hierarchy: Hierarchy) -> tuple[Concept, ...]:
    above = tuple(concept for concept in chain if concept.synset != sense)
    depth = 0 if sense is None else hierarchy.concept(sense).depth
    return (*above, Concept(sense, word, depth))


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
        subject, obj = self.disambiguator([triple])[0]
        return self.sense_chains(subject), self.sense_chains(obj)

    def sense_chains(self, sense: str | None) -> tuple[Concept, ...]:
        """The filtered chain of one sense, root first; () for a word WordNet lacks."""
        return () if sense is None else self.hierarchy.chain(sense)

    def grid(self, triple: Triple) -> AbstractionGrid:
        return self.grids([triple])[0]

    def grids(self, triples: Sequence[Triple]) -> list[AbstractionGrid]:
        """One grid per triple, in input order; senses of all triples are chosen in one batch."""
        grids = []
        for triple, (subject, obj) in zip(triples, self.disambiguator(triples), strict=True):
            subjects = _axis(triple.subject, subject, self.sense_chains(subject), self.hierarchy)
            objects = _axis(triple.object, obj, self.sense_chains(obj), self.hierarchy)
            grids.append(AbstractionGrid(triple, subjects, objects))
        return grids

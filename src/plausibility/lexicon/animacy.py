"""Whether a noun names a being that acts of its own accord: a person or an animal, by its most frequent sense.

A selectional restriction reads it: a verb whose attested subjects are almost all people or animals makes an
event with a rock or a spoon as its subject implausible. The most frequent sense decides, as the shipped
models' own WSD does (`mfs`): "rock" is a stone, though WordNet also lists a rock of a person.
"""

from plausibility.lexicon.hierarchy import Hierarchy

# The synsets under which a noun's first sense counts as animate (people.n.01: "people" is a group of persons,
# not a person). organism.n.01 is left out: it holds the plants, which neither chase nor read; person.n.01 is
# not under it on WordNet's shortest chain anyway.
ANIMATE_SYNSETS = ("person.n.01", "people.n.01", "animal.n.01")
ANIMATE_WORDS = "people or animals"


class Animacy:
    """A noun's animacy from WordNet: True, False, or None for a word WordNet has no noun for."""

    def __init__(self, hierarchy: Hierarchy, synsets: tuple[str, ...] = ANIMATE_SYNSETS) -> None:
        self.hierarchy = hierarchy
        self.synsets = synsets
        self._known: dict[str, bool | None] = {}

    def __call__(self, noun: str) -> bool | None:
        if noun not in self._known:
            senses = self.hierarchy.senses(noun)
            lineage = self.hierarchy.lineage(senses[0]) if senses else None
            self._known[noun] = None if lineage is None else any(name in lineage for name in self.synsets)
        return self._known[noun]

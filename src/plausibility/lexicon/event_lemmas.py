"""Events as the lemmas the models know: `person eat apples` is scored as `person eat apple`.

Training triples, n-gram counts and WordNet grids are all lemmas, so a plural noun or an inflected verb in a
query or a benchmark would be read as a different, rarer word (and flagged as unseen in training). Every door
(`score`, `serve`, the Python API, the evaluation and Lightning's validation) therefore scores each event in its
lemma form; the query layer keeps the words as given beside it.
"""

from collections.abc import Sequence
from functools import cache

from plausibility.lexicon.hierarchy import Hierarchy
from plausibility.lexicon.inflections import inflections, lemmas
from plausibility.triple import Triple


@cache
def verb_lemma(word: str) -> str:
    """A verb's lemma: the word itself if it is one ("saw" stays "saw"), else its first lemma ("eats" -> "eat").

    A word lemminflect does not know as a verb is kept as given.
    """
    if inflections(word, upos="VERB"):
        return word
    found = lemmas(word, upos="VERB").get("VERB")
    return found[0] if found else word


class EventLemmas:
    """Maps triples to the form they are scored in, and says what changed.

    Nouns go through WordNet's noun lemma (`Hierarchy.lemma`: a word WordNet lists is its own lemma, any
    other through its morphology, "children" -> "child"), as the grids read them; the verb through
    `verb_lemma`. A word with no lemma is scored as given. A noun's lemma depends on WordNet alone, so any
    hierarchy gives the same ones; without one, WordNet's is loaded.
    """

    def __init__(self, hierarchy: Hierarchy | None = None) -> None:
        self.hierarchy = hierarchy if hierarchy is not None else Hierarchy.load()

    def __call__(self, triples: Sequence[Triple]) -> list[Triple]:
        return [Triple(self._noun(t.subject), verb_lemma(t.verb), self._noun(t.object)) for t in triples]

    def _noun(self, word: str) -> str:
        lemma = self.hierarchy.lemma(word)
        # WordNet writes "fire_hydrant" where a query writes "fire hydrant".
        return word if lemma is None else lemma.replace("_", " ")

    @staticmethod
    def columns(given: Sequence[Triple], scored: Sequence[Triple]) -> dict[str, list[object]]:
        """`subject_lemma`, `verb_lemma`, `object_lemma` (the words scored) and `lemmatised` (any differs)."""
        return {
            "subject_lemma": [t.subject for t in scored],
            "verb_lemma": [t.verb for t in scored],
            "object_lemma": [t.object for t in scored],
            "lemmatised": [a != b for a, b in zip(given, scored, strict=True)],
        }

"""The WordNet 3.0 noun hierarchy: senses of a lemma, and filtered hypernym chains of a synset."""

from collections.abc import Collection
from dataclasses import dataclass

from plausibility.errors import PlausibilityError
from plausibility.lexicon.noun_table import ROOT, NounTable, load_table


class UnknownSynsetError(PlausibilityError):
    """A synset name that is not a WordNet 3.0 noun synset."""

    def __init__(self, synset: str) -> None:
        super().__init__(f"unknown noun synset {synset!r}; give a WordNet 3.0 noun synset name such as 'person.n.01'")


@dataclass(frozen=True, slots=True)
class Concept:
    """A sense as the models see it: its synset, one word for it as text, and its depth (entity.n.01 is 1).

    An event's own word stands for its chosen sense with its own spelling ("apples" for apple.n.01); a
    word WordNet lacks is a concept of its own, with no synset and depth 0.
    """

    synset: str | None
    text: str
    depth: int


class Hierarchy:
    """Noun senses and hypernym chains, with the thesis's filters (section 6.5) applied to the chains.

    A chain is formed first (the shortest path from entity.n.01, ties broken alphabetically) and filtered
    afterwards, so depths always count from the root of the unfiltered chain.

    Args:
        table: the precomputed noun table (`load` reads the cached one).
        vocabulary: words of the training corpus; when given, a synset none of whose lemmas is in it is
            dropped from chains, and its text is its first lemma (in WordNet's order) that is.
        min_depth: synsets shallower than this are dropped from chains (4 in the thesis: too broad).
    """

    def __init__(self, table: NounTable, vocabulary: Collection[str] | None = None, min_depth: int = 4) -> None:
        if min_depth < 1:
            raise ValueError(f"min_depth must be at least 1 (the root's depth), got {min_depth}")
        self.table = table
        self.vocabulary = None if vocabulary is None else frozenset(word.lower() for word in vocabulary)
        self.min_depth = min_depth
        self._rows = {name: row for row, name in enumerate(table.synsets)}
        self._words = {word: row for row, word in enumerate(table.words)}
        self._concepts: dict[int, Concept] = {}
        self._kept: dict[int, bool] = {}
        self._lemmas_of: dict[str, str | None] = {}
        self._exceptions = {form: bases for form, *bases in (line.split() for line in table.exceptions)}

    @classmethod
    def load(cls, vocabulary: Collection[str] | None = None, min_depth: int = 4) -> "Hierarchy":
        """The hierarchy of `plausibility.resources.load_wordnet()`, from the cache (built on first use)."""
        return cls(load_table(), vocabulary=vocabulary, min_depth=min_depth)

    def lemma(self, word: str) -> str | None:
        """The WordNet noun lemma a word is looked up as; None if WordNet has no noun for it.

        A word WordNet lists is its own lemma ("glasses" keeps its entries); any other goes through
        WordNet's morphological normalisation (NLTK's `morphy`: "children" -> "child", "apples" -> "apple").
        """
        key = word.strip().lower().replace(" ", "_")
        if key not in self._lemmas_of:
            if key in self._words:
                self._lemmas_of[key] = key
            else:
                self._lemmas_of[key] = self._morphy(key)
        return self._lemmas_of[key]

    def _morphy(self, key: str) -> str | None:
        """NLTK's `morphy(key, "n")` over the table: the bases WordNet's exception list gives an irregular form,
        else NLTK's suffix rules, and the first of them that is a noun; NLTK's reader takes seconds to load."""
        from nltk.corpus.reader.wordnet import NOUN, WordNetCorpusReader

        bases = (
            self._exceptions[key]
            if key in self._exceptions
            else [
                key[: -len(old)] + new
                for old, new in WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS[NOUN]
                if key.endswith(old)
            ]
        )
        return next((base for base in bases if base in self._words), None)

    def senses(self, word: str) -> tuple[str, ...]:
        """Noun synset names of `word`'s lemma in WordNet's sense order (most frequent first); () if none."""
        lemma = self.lemma(word)
        if lemma is None:
            return ()
        row = self._words[lemma]
        start, stop = self.table.sense_starts[row], self.table.sense_starts[row + 1]
        return tuple(self.table.synsets[sense] for sense in self.table.senses[start:stop])

    def concept(self, synset: str) -> Concept:
        """The concept of `synset`, whether or not the filters keep it in chains."""
        return self._concept(self._row(synset))

    def chain(self, synset: str) -> tuple[Concept, ...]:
        """Concepts from the root down to `synset` itself, after the depth and vocabulary filters."""
        rows = []
        row = self._row(synset)
        while row != ROOT:
            rows.append(row)
            row = int(self.table.parents[row])
        return tuple(self._concept(row) for row in reversed(rows) if self._keeps(row))

    def lineage(self, synset: str) -> tuple[str, ...]:
        """Synset names from `synset` itself up to the root along its chain, unfiltered."""
        names = []
        row = self._row(synset)
        while row != ROOT:
            names.append(self.table.synsets[row])
            row = int(self.table.parents[row])
        return tuple(names)

    def _row(self, synset: str) -> int:
        row = self._rows.get(synset)
        if row is None:
            raise UnknownSynsetError(synset)
        return row

    def _lemmas(self, row: int) -> tuple[str, ...]:
        return self.table.lemmas[self.table.lemma_starts[row] : self.table.lemma_starts[row + 1]]

    def _keeps(self, row: int) -> bool:
        if row not in self._kept:
            deep_enough = int(self.table.depths[row]) >= self.min_depth
            known = self.vocabulary is None or any(lemma in self.vocabulary for lemma in self._lemmas(row))
            self._kept[row] = deep_enough and known
        return self._kept[row]

    def _concept(self, row: int) -> Concept:
        if row not in self._concepts:
            lemmas = self._lemmas(row)
            in_vocabulary = [lemma for lemma in lemmas if self.vocabulary is not None and lemma in self.vocabulary]
            text = (in_vocabulary or lemmas)[0]
            self._concepts[row] = Concept(self.table.synsets[row], text, int(self.table.depths[row]))
        return self._concepts[row]

"""A concept's WordNet gloss, for the page's links from a grid's axes: served, since the page works offline."""

from plausibility.lexicon.hierarchy import Hierarchy
from plausibility.resources.wordnet import load_wordnet


def gloss(hierarchy: Hierarchy, synset: str) -> dict[str, object]:
    """The words, definition, examples and depth of a noun synset; `UnknownSynsetError` for any other name.

    The name is looked up in the hierarchy's table first, so only a WordNet 3.0 noun synset reaches the reader.
    """
    depth = hierarchy.concept(synset).depth
    entry = load_wordnet().synset(synset)
    return {
        "synset": synset,
        "words": [lemma.replace("_", " ") for lemma in entry.lemma_names()],
        "definition": entry.definition(),
        "examples": list(entry.examples()),
        "depth": depth,
    }

from plausibility.lexicon.abstractions import AbstractionGrid, Abstractor
from plausibility.triple import Triple


def test_grid_axes_end_with_the_surface_word(hierarchy):
    grid = Abstractor(hierarchy).grid(Triple("dentist", "breathe", "helium"))
    assert grid.subjects == (
        "person",
        "adult",
        "professional",
        "health professional",
        "medical practitioner",
        "dentist",
    )
    assert grid.subject_depths == (4, 5, 6, 7, 8, 9)
    assert grid.objects == ("substance", "chemical element", "helium")
    assert grid.object_depths == (4, 5, 6)


def test_word_missing_from_wordnet_keeps_its_surface_form(hierarchy):
    abstractor = Abstractor(hierarchy)
    grid = abstractor.grid(Triple("xyzzy", "eat", "entity"))
    # "entity" is in WordNet but its whole chain is shallower than depth 4
    assert grid == AbstractionGrid(Triple("xyzzy", "eat", "entity"), ("xyzzy",), ("entity",), (0,), (1,))
    assert abstractor.chains(Triple("xyzzy", "eat", "entity")) == ((), ())


def test_triples_are_row_major():
    grid = AbstractionGrid(Triple("dog", "eat", "bone"), ("animal", "dog"), ("food", "bone"), (6, 13), (5, 9))
    assert grid.shape == (2, 2)
    assert [str(t) for t in grid.triples()] == ["animal eat food", "animal eat bone", "dog eat food", "dog eat bone"]


def test_chains_include_the_sense_itself(hierarchy):
    subject_chain, object_chain = Abstractor(hierarchy).chains(Triple("dentist", "breathe", "helium"))
    assert subject_chain[-1].synset == "dentist.n.01"
    assert object_chain[-1].synset == "helium.n.01"

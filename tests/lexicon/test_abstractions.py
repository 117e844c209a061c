from plausibility.lexicon.abstractions import Abstraction, AbstractionGrid, Abstractor
from plausibility.lexicon.hierarchy import Concept
from plausibility.triple import Triple


def test_grid_axes_end_with_the_surface_word(hierarchy):
    grid = Abstractor(hierarchy).grid(Triple("dentist", "breathe", "helium"))
    assert [concept.text for concept in grid.subjects] == [
        "person",
        "adult",
        "professional",
        "health professional",
        "medical practitioner",
        "dentist",
    ]
    assert grid.subject_depths == (4, 5, 6, 7, 8, 9)
    assert [concept.text for concept in grid.objects] == ["substance", "chemical element", "helium"]
    assert grid.object_depths == (4, 5, 6)
    assert grid.subjects[-1] == Concept("dentist.n.01", "dentist", 9)
    assert grid.objects[0] == Concept("substance.n.01", "substance", 4)


def test_word_missing_from_wordnet_keeps_its_surface_form(hierarchy):
    abstractor = Abstractor(hierarchy)
    grid = abstractor.grid(Triple("xyzzy", "eat", "entity"))
    # "entity" is in WordNet but its whole chain is shallower than depth 4
    expected = AbstractionGrid(
        Triple("xyzzy", "eat", "entity"), (Concept(None, "xyzzy", 0),), (Concept("entity.n.01", "entity", 1),)
    )
    assert grid == expected
    assert abstractor.chains(Triple("xyzzy", "eat", "entity")) == ((), ())


def test_cells_are_row_major_and_end_with_the_event():
    animal, dog = Concept("animal.n.01", "animal", 6), Concept("dog.n.01", "dog", 13)
    food, bone = Concept("food.n.01", "food", 5), Concept("bone.n.01", "bone", 9)
    grid = AbstractionGrid(Triple("dog", "eat", "bone"), (animal, dog), (food, bone))
    assert grid.shape == (2, 2)
    assert [str(t) for t in grid.triples()] == ["animal eat food", "animal eat bone", "dog eat food", "dog eat bone"]
    assert grid.cells()[1] == Abstraction(animal, "eat", bone)
    assert grid.cells()[-1].triple == grid.event


def test_chains_include_the_sense_itself(hierarchy):
    subject_chain, object_chain = Abstractor(hierarchy).chains(Triple("dentist", "breathe", "helium"))
    assert subject_chain[-1].synset == "dentist.n.01"
    assert object_chain[-1].synset == "helium.n.01"


def test_plural_and_irregular_nouns_are_looked_up_by_their_lemma(hierarchy):
    assert hierarchy.lemma("children") == "child"
    assert hierarchy.lemma("apples") == "apple"
    assert [hierarchy.lemma(w) for w in ("trousers", "jeans", "groceries")] == ["trouser", "jean", "grocery"]
    assert hierarchy.lemma("glasses") == "glasses"  # in WordNet as it is: keeps its own entries
    assert hierarchy.lemma("xyzzy") is None
    grid = Abstractor(hierarchy).grid(Triple("children", "eat", "apples"))
    assert grid.subjects[-1] == Concept("child.n.01", "children", hierarchy.concept("child.n.01").depth)
    assert [c.synset for c in grid.subjects[:-1]] == [c.synset for c in hierarchy.chain("child.n.01")[:-1]]
    assert grid.objects[-1].synset == "apple.n.01" and grid.objects[-1].text == "apples"
    assert grid.event == Triple("children", "eat", "apples")  # the event keeps its own words

"""A noun's animacy by its most frequent WordNet sense, as the subject restriction reads it."""

from plausibility.lexicon.animacy import Animacy


def test_people_and_animals_are_animate_by_their_first_sense(full_hierarchy):
    animacy = Animacy(full_hierarchy)
    assert [animacy(noun) for noun in ("dentist", "toddler", "people", "cat", "dogs")] == [True] * 5
    # a rock is a stone first (WordNet's person sense of "rock" comes later); plants are organisms, not animals
    assert [animacy(noun) for noun in ("rock", "spoon", "sofa", "plant", "team")] == [False] * 5
    assert animacy("xqzzyplok") is None


def test_other_synsets_can_count_as_animate(full_hierarchy):
    groups = Animacy(full_hierarchy, ("person.n.01", "social_group.n.01"))
    assert groups("team") is True and groups("cat") is False


def test_lineage_runs_from_the_synset_to_the_root(full_hierarchy):
    lineage = full_hierarchy.lineage("dentist.n.01")
    assert lineage[0] == "dentist.n.01" and lineage[-1] == "entity.n.01"
    assert "person.n.01" in lineage and len(lineage) == 9

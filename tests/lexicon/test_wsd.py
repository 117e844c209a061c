import numpy as np
import pytest

from plausibility.errors import UnknownNameError
from plausibility.lexicon.noun_table import unpack_strings
from plausibility.lexicon.wsd import Disambiguator, disambiguate
from plausibility.triple import Triple


def test_mfs_takes_the_first_noun_sense(hierarchy):
    assert disambiguate(Triple("player", "swing", "bat"), hierarchy) == ("player.n.01", "bat.n.01")
    # "run" is a verb first, but only noun senses are candidates
    assert disambiguate(Triple("run", "hit", "xyzzy"), hierarchy) == ("run.n.01", None)


def test_unknown_method_lists_the_known_ones(hierarchy):
    with pytest.raises(UnknownNameError, match="unknown WSD method 'bert'; known: gloss, mfs"):
        Disambiguator(hierarchy, "bert")


@pytest.mark.integration
def test_gloss_uses_the_context_where_mfs_cannot(hierarchy, tmp_path, monkeypatch):
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path))
    gloss = Disambiguator(hierarchy, "gloss")
    swing, eat, unknown = gloss(
        [Triple("player", "swing", "bat"), Triple("bat", "eat", "insect"), Triple("xyzzy", "eat", "insect")]
    )
    assert swing[1] == "bat.n.05"  # a club used for hitting a ball
    assert eat[0] == "bat.n.01"  # the mammal: here the context agrees with the first sense
    assert unknown == (None, "insect.n.01")
    assert disambiguate(Triple("player", "swing", "bat"), hierarchy, "mfs")[1] != swing[1]
    for subject, obj in (swing, eat):
        assert ".n." in subject and ".n." in obj
    # the gloss vectors went to the cache, and a new disambiguator reading them chooses the same senses
    with np.load(gloss.gloss_cache_path, allow_pickle=False) as cached:
        assert unpack_strings(cached["synsets"]) == tuple(
            sorted({*hierarchy.senses("bat"), *hierarchy.senses("player"), *hierarchy.senses("insect")})
        )
    assert Disambiguator(hierarchy, "gloss")([Triple("player", "swing", "bat")]) == [swing]

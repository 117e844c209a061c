import os
import subprocess
import sys
from dataclasses import replace

import pytest

from plausibility.lexicon.hierarchy import Concept, Hierarchy, UnknownSynsetError
from plausibility.lexicon.noun_table import load_table, read_table, save_table, table_path
from plausibility.resources.wordnet import load_wordnet

DENTIST = [
    "entity.n.01",
    "physical_entity.n.01",
    "causal_agent.n.01",
    "person.n.01",
    "adult.n.01",
    "professional.n.01",
    "health_professional.n.01",
    "medical_practitioner.n.01",
    "dentist.n.01",
]


def test_dentist_chain_before_filtering(full_hierarchy):
    chain = full_hierarchy.chain("dentist.n.01")
    assert [c.synset for c in chain] == DENTIST
    assert [c.depth for c in chain] == list(range(1, 10))
    assert chain[6] == Concept("health_professional.n.01", "health professional", 7)


def test_depth_filter_drops_the_three_broadest(hierarchy):
    assert [c.synset for c in hierarchy.chain("dentist.n.01")] == DENTIST[3:]
    assert hierarchy.chain("entity.n.01") == ()
    # a filtered synset still has a concept, with its depth in the unfiltered chain
    assert hierarchy.concept("causal_agent.n.01") == Concept("causal_agent.n.01", "causal agent", 3)


def test_vocabulary_filter_and_text_in_vocabulary(full_hierarchy):
    vocabulary = {"Person", "dentist", "grownup", "professional"}
    filtered = Hierarchy(full_hierarchy.table, vocabulary=vocabulary, min_depth=4)
    chain = filtered.chain("dentist.n.01")
    assert [c.synset for c in chain] == ["person.n.01", "adult.n.01", "professional.n.01", "dentist.n.01"]
    # adult.n.01's lemmas are adult, grownup: the first one the corpus knows names it
    assert chain[1] == Concept("adult.n.01", "grownup", 5)
    assert full_hierarchy.concept("adult.n.01").text == "adult"


def test_senses_in_wordnet_order(hierarchy):
    assert hierarchy.senses("bat") == ("bat.n.01", "bat.n.02", "squash_racket.n.01", "cricket_bat.n.01", "bat.n.05")
    assert hierarchy.senses("Health Professional") == ("health_professional.n.01",)
    assert hierarchy.senses("xyzzy") == ()
    assert hierarchy.senses("run")[0].endswith(".n.01")  # nouns only, though "run" is mostly a verb


def test_unknown_synset_names_the_input():
    with pytest.raises(UnknownSynsetError, match=r"unknown noun synset 'run\.v\.01'; give a WordNet 3\.0 noun synset"):
        Hierarchy(load_table()).chain("run.v.01")


def test_min_depth_must_be_positive(full_hierarchy):
    with pytest.raises(ValueError, match="min_depth must be at least 1"):
        Hierarchy(full_hierarchy.table, min_depth=0)


def _refuse_wordnet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any use of NLTK's reader, or any rebuild of the table, fail."""

    def refused(*args: object) -> None:
        raise AssertionError("NLTK's WordNet reader was loaded")

    monkeypatch.setattr("plausibility.resources.wordnet.load_wordnet", refused)
    monkeypatch.setattr("plausibility.lexicon.noun_table.load_wordnet", refused)
    monkeypatch.setattr("plausibility.lexicon.noun_table.build_table", refused)


def test_table_round_trip_and_warm_load(full_hierarchy, tmp_path, monkeypatch):
    path = tmp_path / "nouns.npz"
    save_table(full_hierarchy.table, path)
    copy = read_table(path)
    assert copy.synsets == full_hierarchy.table.synsets
    assert (copy.parents == full_hierarchy.table.parents).all()
    assert copy.exceptions == full_hierarchy.table.exceptions and "children child" in copy.exceptions
    assert not list(tmp_path.glob(".*.partial"))
    written = table_path().stat().st_mtime_ns
    _refuse_wordnet(monkeypatch)  # a warm load reads the cache: no reader, no rebuild
    assert Hierarchy.load().table.synsets == full_hierarchy.table.synsets
    assert table_path().stat().st_mtime_ns == written
    save_table(replace(full_hierarchy.table, exceptions=()), tmp_path / "no-exceptions.npz")
    assert read_table(tmp_path / "no-exceptions.npz").exceptions == ()


def test_lemmas_agree_with_nltks_morphy_without_loading_its_reader(full_hierarchy, monkeypatch):
    """The table carries WordNet's exception list, so lemmas need no reader; NLTK's morphy is the reference."""
    wordnet = load_wordnet()
    words = set(full_hierarchy.table.words)
    irregular = [line.split()[0] for line in full_hierarchy.table.exceptions]
    regular = [word + suffix for word in full_hierarchy.table.words[::40] for suffix in ("s", "es", "men")]
    forms = irregular + regular + ["wolves", "boxes", "churches", "ladies", "women", "xyzzy", "s", ""]
    expected = {}
    for word in forms:
        base = word if word in words else wordnet.morphy(word, "n")
        expected[word] = base if base in words else None
    _refuse_wordnet(monkeypatch)
    fresh = Hierarchy(full_hierarchy.table, min_depth=1)
    assert {word: fresh.lemma(word) for word in forms} == expected


# Each has two equally short paths to the root; NLTK's order between them follows the hash seed.
TIED = {
    "belch.n.01": "abstraction.n.06",
    "recombinant.n.01": "cell.n.02",
    "acid.n.02": "controlled_substance.n.01",
}
_CHAINS = "from plausibility.lexicon.noun_table import hypernym_chain; "
_CHAINS += "from plausibility.resources.wordnet import load_wordnet; "
_CHAINS += "wn = load_wordnet(); print([hypernym_chain(wn.synset(name)) for name in {names!r}])"


@pytest.mark.slow
def test_tied_chains_do_not_depend_on_the_hash_seed(full_hierarchy):
    script = _CHAINS.format(names=sorted(TIED))
    outputs = set()
    for seed in ("0", "1", "12345"):
        environment = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", script], env=environment, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        outputs.add(run.stdout)
    assert len(outputs) == 1
    for name, branch in TIED.items():
        assert branch in [c.synset for c in full_hierarchy.chain(name)]

"""ConceptMax is consistent by construction: cells keep their event's senses, its grid is a running maximum."""

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.cli import main
from plausibility.evaluation.grids import measure_consistency, score_grids
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.results import ReportSettings, evaluate_scorer
from plausibility.lexicon.abstractions import Abstraction
from plausibility.lexicon.hierarchy import Concept, Hierarchy
from plausibility.lexicon.noun_table import ROOT, NounTable
from plausibility.lexicon.training_lexicon import TrainingLexicon, bundled_lexicon, lexicon_of
from plausibility.scorers.concept_max import ConceptMax, running_maximum
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple

# entity > organism > animal > dog, and entity > matter > food > bone; the word "animal" also names
# beast.n.09 (directly under entity), and that is its first, most frequent sense.
SYNSETS = ("entity.n.01", "organism.n.01", "animal.n.01", "dog.n.01", "beast.n.09", "matter.n.01", "food.n.01")
SYNSETS += ("bone.n.01",)
PARENTS = (ROOT, 0, 1, 2, 0, 0, 5, 6)
LEMMAS = (("entity",), ("organism",), ("animal",), ("dog",), ("animal", "beast"), ("matter",), ("food",), ("bone",))
SENSES = {"animal": (4, 2), "beast": (4,), "bone": (7,), "dog": (3,), "entity": (0,), "food": (6,)}
SENSES |= {"matter": (5,), "organism": (1,)}


def hand_hierarchy() -> Hierarchy:
    depths = []
    for parent in PARENTS:
        depths.append(1 if parent == ROOT else depths[parent] + 1)
    words = tuple(sorted(SENSES))
    table = NounTable(
        synsets=SYNSETS,
        parents=np.array(PARENTS, dtype=np.int32),
        depths=np.array(depths, dtype=np.int32),
        lemma_starts=np.cumsum([0, *map(len, LEMMAS)]).astype(np.int32),
        lemmas=tuple(lemma for lemmas in LEMMAS for lemma in lemmas),
        words=words,
        sense_starts=np.cumsum([0, *(len(SENSES[w]) for w in words)]).astype(np.int32),
        senses=np.array([row for w in words for row in SENSES[w]], dtype=np.int32),
        exceptions=(),
    )
    return Hierarchy(table, min_depth=1)


def _value(*parts: object) -> float:
    """A fixed pseudo-random value in [0, 1) per key."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class SenseScores:
    """Scores a cell by its synsets; scores text by re-disambiguating its words with WordNet's first sense."""

    probability_mapping = "the score itself"

    def __init__(self, hierarchy: Hierarchy) -> None:
        self.hierarchy = hierarchy

    def score_abstractions(self, abstractions: Sequence[Abstraction]) -> np.ndarray:
        return np.array([_value(a.subject.synset, a.verb, a.object.synset) for a in abstractions])

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        first = [(self.hierarchy.senses(t.subject)[0], self.hierarchy.senses(t.object)[0]) for t in triples]
        return np.array([_value(s, t.verb, o) for (s, o), t in zip(first, triples, strict=True)])

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return np.asarray(scores, dtype=np.float64)


class RandomScores:
    """A text scorer with a fixed pseudo-random score per triple."""

    probability_mapping = "the score itself"

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return np.array([_value(t) for t in triples])

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return np.asarray(scores, dtype=np.float64)


def test_running_maximum_by_hand() -> None:
    raw = np.array([[0.3, 0.1, 0.5], [0.2, 0.6, 0.4]])
    # row 0: 0.3, max(0.3, 0.1), max(0.3, 0.5); row 1 also takes the column above it
    assert running_maximum(raw).tolist() == [[0.3, 0.3, 0.5], [0.3, 0.6, 0.6]]


def test_cells_keep_the_chain_sense_and_concept_max_is_the_running_maximum() -> None:
    hierarchy = hand_hierarchy()
    lexicon = TrainingLexicon.over(hierarchy)
    grid = lexicon.abstractor.grid(Triple("dog", "eat", "bone"))
    assert hierarchy.senses("animal")[0] == "beast.n.09"  # the word alone would mean another sense
    assert grid.subjects[2] == Concept("animal.n.01", "animal", 3)
    scorer = SenseScores(hierarchy)
    cells = grid.cells()
    raw = np.array([_value(c.subject.synset, "eat", c.object.synset) for c in cells]).reshape(grid.shape)
    assert raw[2, 3] == _value("animal.n.01", "eat", "bone.n.01") != scorer.score([cells[11].triple])[0]
    wrapped = ConceptMax(scorer, lexicon)
    (grid_scores,) = wrapped.grid_scores([grid])
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            assert grid_scores[i, j] == raw[: i + 1, : j + 1].max()
    assert wrapped.score([grid.event])[0] == raw.max() == grid_scores[-1, -1]


@pytest.fixture(scope="module")
def pep3k_events() -> list[Triple]:
    return [event.triple for event in load_plausibility_set("pep3k", "test")[:50]]


def test_concept_max_has_no_local_extremum_on_real_grids(pep3k_events: list[Triple]) -> None:
    lexicon = bundled_lexicon()
    raw = measure_consistency(RandomScores(), pep3k_events, lexicon)
    wrapped = measure_consistency(ConceptMax(RandomScores(), lexicon), pep3k_events, lexicon)
    assert raw.n_windows == wrapped.n_windows > 100 and raw.local_extremum_rate > 0.3
    assert wrapped.local_extremum_rate == 0.0
    assert wrapped.concavity_delta <= raw.concavity_delta
    assert wrapped.scale_free_concavity_delta <= raw.scale_free_concavity_delta


def test_batched_and_per_event_grids_are_identical(pep3k_events: list[Triple]) -> None:
    lexicon = bundled_lexicon()
    grids = lexicon.abstractor.grids(pep3k_events)
    together, _ = score_grids(ConceptMax(RandomScores(), lexicon), grids, chunk_size=64)
    for grid, scored in zip(grids, together, strict=True):
        (alone,), _ = score_grids(ConceptMax(RandomScores(), lexicon, deduplicate=False), [grid], chunk_size=3)
        assert np.array_equal(scored.scores, alone.scores)
        assert np.array_equal(scored.scores, running_maximum(RandomScores().score(grid.triples()).reshape(grid.shape)))
    scores = ConceptMax(RandomScores(), lexicon).score(pep3k_events)
    assert scores.tolist() == [scored.scores[-1, -1] for scored in together]


def test_a_concept_max_given_another_lexicon_searches_that_one(pep3k_events: list[Triple]) -> None:
    shallow = TrainingLexicon(bundled_lexicon().vocabulary, min_depth=2, origin="the bundled training nouns")
    result = measure_consistency(ConceptMax(RandomScores(), bundled_lexicon()), pep3k_events[:10], shallow)
    assert result.local_extremum_rate == 0.0 and result.lexicon["min_depth"] == 2


def test_consistency_and_report_lay_grids_out_in_the_same_lexicon(fixtures: Path, tmp_path: Path) -> None:
    spec = f"conceptmax:ngram:{fixtures / 'ngram_triples.tsv'}"
    assert main(["consistency", "--model", spec, "--benchmarks", "20q", "--splits", "test", "--limit", "20"]
                + ["--heatmaps", "0", "--output", str(tmp_path / "c")]) == 0  # fmt: skip
    consistency = json.loads((tmp_path / "c" / "consistency.json").read_text())
    arguments = ["report", "--model", spec, "--consistency-events", "20", "--resamples", "10", "--no-runs"]
    assert main([*arguments, "--output", str(tmp_path / "r")]) == 0
    report = json.loads((tmp_path / "r" / "results.json").read_text())
    # The demo measures through evaluate_scorer, as the report does.
    settings = ReportSettings(n_resamples=10, consistency_events=20)
    demo = evaluate_scorer(ModelRequest("ConceptMax", spec), build_scorer(spec), settings)
    expected = lexicon_of(build_scorer(spec).lexicon).describe()
    assert expected["vocabulary"] == "the bundled training nouns" and expected["min_depth"] == 4
    assert consistency["lexicon"] == expected
    assert report["models"][0]["consistency"]["20q"]["lexicon"] == expected
    assert demo.consistency["20q"].lexicon == expected
    assert consistency["ler"] == report["models"][0]["consistency"]["20q"]["ler"] == 0.0

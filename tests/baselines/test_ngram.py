import math

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from plausibility.baselines.ngram import BigramCounts, NgramScorer
from plausibility.corpus.artefacts import read_count_table, read_counts
from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.scorers.protocol import TripleScorer
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple

# C(person, eat) = 6, C(dog, eat) = 3, C(eat) = 9, C(eat, food) = 7, C(eat, bread) = 2; |S| = 3, |O| = 5
EVENTS = [Triple("person", "eat", "food"), Triple("dog", "eat", "bread"), Triple("child", "eat", "food")]


@pytest.fixture
def counts(fixtures):
    return BigramCounts.from_triples(read_counts(fixtures / "ngram_triples.tsv"))


def test_counts_from_the_fixture(counts):
    assert counts.subject_verb[("person", "eat")] == 6
    assert counts.verb_object[("eat", "food")] == 7
    assert counts.verb == {"eat": 9, "chase": 6, "drink": 2}
    assert (counts.n_subjects, counts.n_objects) == (3, 5)


def test_counts_from_a_table_equal_counts_from_triples(fixtures):
    triples = read_counts(fixtures / "ngram_triples.tsv")
    from_table = BigramCounts.from_table(read_count_table(fixtures / "ngram_triples.tsv"))
    from_triples = BigramCounts.from_triples(triples)
    assert from_table.subject_verb == from_triples.subject_verb and from_table.verb == from_triples.verb
    assert from_table.verb_object == from_triples.verb_object
    assert (from_table.n_subjects, from_table.n_objects) == (from_triples.n_subjects, from_triples.n_objects)
    assert dict(from_table.triple) == triples  # built on first use
    events = [*EVENTS, Triple("bird", "fly", "sky")]
    assert (
        NgramScorer(from_table).held_out_score(events).tolist()
        == NgramScorer(from_triples).held_out_score(events).tolist()
    )


def test_unsmoothed_is_the_thesis_formula(counts):
    scores = NgramScorer(counts, k=0.0).score([*EVENTS, Triple("bird", "fly", "sky")])
    # Both: float64, the sum of two logs vs the log of the product, a few ulps.
    assert scores[0] == pytest.approx(math.log(6 * 7 / 9**2))
    assert scores[1] == pytest.approx(math.log(3 * 2 / 9**2))
    assert scores[2] == -np.inf and scores[3] == -np.inf  # unseen pair; unseen verb


def test_add_k_by_hand(counts):
    scores = NgramScorer(counts, k=0.5).score([*EVENTS, Triple("bird", "fly", "sky")])
    expected = [
        (6.5 / 11) * (7.5 / 12),  # C(v) + k(|S| + 1) = 9 + 2 = 11; C(v) + k(|O| + 1) = 9 + 3 = 12
        (3.5 / 11) * (2.5 / 12),
        (0.5 / 11) * (7.5 / 12),
        (1 / 4) * (1 / 6),  # unseen verb: uniform over |S| + 1 subjects and |O| + 1 objects
    ]
    assert scores == pytest.approx(np.log(expected))  # float64: a sum of logs vs the log of a product, a few ulps
    probabilities = NgramScorer(counts).to_probability(scores)
    assert probabilities == pytest.approx(expected)  # float64 exp of a log: a few ulps


def test_a_held_out_event_scores_as_if_its_triple_had_never_been_counted(fixtures, counts):
    triples = read_counts(fixtures / "ngram_triples.tsv")
    person_eats_food = Triple("person", "eat", "food")  # counted 4 times; its words stay in other triples
    without = BigramCounts.from_triples({t: n for t, n in triples.items() if t != person_eats_food})
    assert (without.n_subjects, without.n_objects) == (counts.n_subjects, counts.n_objects)

    scorer, rebuilt = NgramScorer(counts), NgramScorer(without)
    person_eats_bread = Triple("person", "eat", "bread")  # counted twice: its object pair falls to zero
    held_out = scorer.held_out_score([person_eats_food, person_eats_bread, *EVENTS[1:]])
    assert held_out[0] == pytest.approx(rebuilt.score([person_eats_food])[0])  # the same integer counts: exact
    assert held_out[0] < scorer.score([person_eats_food])[0]
    # C(person, eat) = 6 - 2, C(eat, bread) = 2 - 2, C(eat) = 9 - 2
    assert held_out[1] == pytest.approx(math.log((4.5 / (7 + 2)) * (0.5 / (7 + 3))))  # float64 logs: a few ulps
    # dog eat bread and child eat food were never counted: leaving them out changes nothing
    assert held_out[2:].tolist() == scorer.score(EVENTS[1:]).tolist()


def test_order_and_batching_do_not_matter(counts):
    scorer = NgramScorer(counts)
    together = scorer.score(EVENTS)
    alone = np.concatenate([scorer.score([event]) for event in reversed(EVENTS)])[::-1]
    assert together.dtype == np.float64 and together.shape == (3,)
    assert np.array_equal(together, alone)


def test_negative_k_is_refused(counts):
    with pytest.raises(ValueError, match="add-k pseudo-count must be non-negative, got -1"):
        NgramScorer(counts, k=-1)


def test_spec_loads_tsv_and_parquet(fixtures, tmp_path):
    tsv = build_scorer(f"ngram:{fixtures / 'ngram_triples.tsv'}")
    assert isinstance(tsv, TripleScorer)
    parquet = tmp_path / "triples.parquet"
    rows = read_counts(fixtures / "ngram_triples.tsv")
    table = {name: [getattr(t, name) for t in rows] for name in ("subject", "verb", "object")}
    pq.write_table(pa.table({**table, "count": pa.array(list(rows.values()), pa.int64())}), parquet)
    assert np.array_equal(build_scorer(f"ngram:{parquet}").score(EVENTS), tsv.score(EVENTS))


def test_bad_files_name_the_file_and_line(tmp_path):
    with pytest.raises(ResourceMissingError, match="missing.tsv: no such triples file"):
        build_scorer(f"ngram:{tmp_path / 'missing.tsv'}")
    header = tmp_path / "header.tsv"
    header.write_text("s\tv\to\tn\n")
    with pytest.raises(DataFormatError, match=r"header.tsv:1: expected the header subject verb object count"):
        read_counts(header)
    bad = tmp_path / "bad.tsv"
    bad.write_text("subject\tverb\tobject\tcount\nperson\teat\tfood\t4\nperson\teat\tfood\tmany\n")
    with pytest.raises(DataFormatError, match=r"bad.tsv:3: need non-empty words and a non-negative integer count"):
        read_counts(bad)
    short = tmp_path / "short.tsv"
    short.write_text("subject\tverb\tobject\tcount\nperson\teat\n")
    with pytest.raises(DataFormatError, match=r"short.tsv:2: expected 4 tab-separated columns, got 2"):
        read_counts(short)

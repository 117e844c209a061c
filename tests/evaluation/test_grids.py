from collections.abc import Sequence

import numpy as np
import pytest

from plausibility.baselines.ngram import BigramCounts, NgramScorer
from plausibility.corpus.artefacts import read_counts
from plausibility.errors import DataFormatError, PlausibilityError
from plausibility.evaluation.consistency import concavity_delta, grid_windows, local_extremum_rate
from plausibility.evaluation.grids import ProbabilityRangeError, measure_consistency, score_grids
from plausibility.evaluation.heatmap import save_heatmap
from plausibility.lexicon.abstractions import Abstractor
from plausibility.lexicon.training_lexicon import TrainingLexicon
from plausibility.triple import Triple

EVENTS = [Triple("dog", "eat", "meat"), Triple("cat", "eat", "meat"), Triple("dog", "chase", "cat")]


class CountingScorer:
    """The n-gram scorer, recording every triple it is asked to score."""

    def __init__(self, scorer: NgramScorer) -> None:
        self.scorer = scorer
        self.probability_mapping = scorer.probability_mapping
        self.seen: list[Triple] = []

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        self.seen.extend(triples)
        return self.scorer.score(triples)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return self.scorer.to_probability(scores)


@pytest.fixture(scope="module")
def lexicon() -> TrainingLexicon:
    """All of WordNet below depth 4, most frequent senses."""
    return TrainingLexicon()


@pytest.fixture(scope="module")
def abstractor(lexicon: TrainingLexicon) -> Abstractor:
    return lexicon.abstractor


@pytest.fixture
def ngram(fixtures) -> NgramScorer:
    return NgramScorer(BigramCounts.from_triples(read_counts(fixtures / "ngram_triples.tsv")))


def test_each_unique_abstraction_is_scored_once(abstractor, ngram):
    counting = CountingScorer(ngram)
    grids = abstractor.grids(EVENTS)
    scored, n_unique = score_grids(counting, grids, chunk_size=7)
    unique = {t for grid in grids for t in grid.triples()}
    assert len(counting.seen) == len(set(counting.seen)) == n_unique == len(unique)
    assert n_unique < sum(len(grid.triples()) for grid in grids)  # dog and meat recur across events
    for grid, result in zip(grids, scored, strict=True):
        alone = ngram.to_probability(ngram.score(grid.triples())).reshape(grid.shape)
        assert np.array_equal(result.probabilities, alone)


def test_pooled_metrics_are_over_all_windows(lexicon, ngram):
    result = measure_consistency(ngram, EVENTS, lexicon, chunk_size=5)
    windows = np.concatenate([grid_windows(grid.probabilities) for grid in result.grids])
    assert result.n_windows == len(windows) > 0
    assert result.concavity_delta == concavity_delta(windows)
    assert result.local_extremum_rate == local_extremum_rate(windows)
    assert result.n_grid_triples == sum(grid.probabilities.size for grid in result.grids)
    assert result.probability_mapping == ngram.probability_mapping
    assert result.grids[0].concavity_delta == concavity_delta(result.grids[0].windows)
    assert result.lexicon == {"vocabulary": "all of WordNet", "vocabulary_size": None, "min_depth": 4, "wsd": "mfs"}


def test_events_may_be_tuples_or_strings_of_three_words(lexicon, ngram):
    given = [("dog", "eat", "meat"), "cat eat meat", EVENTS[2]]
    expected, result = measure_consistency(ngram, EVENTS, lexicon), measure_consistency(ngram, given, lexicon)
    assert result.concavity_delta == expected.concavity_delta  # the same grids scored alike
    assert [grid.probabilities.tolist() for grid in result.grids] == [g.probabilities.tolist() for g in expected.grids]
    with pytest.raises(DataFormatError, match=r"^event 1 \(\('cat', 'eat'\)\) is not a triple; give \(subject, verb"):
        measure_consistency(ngram, [EVENTS[0], ("cat", "eat")], lexicon)


def test_events_without_windows_are_refused(lexicon, ngram):
    with pytest.raises(PlausibilityError, match="none of the 1 events has three abstractions in a row"):
        measure_consistency(ngram, [Triple("xyzzy", "eat", "plugh")], lexicon)


class Overconfident(CountingScorer):
    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return np.asarray(scores) + 10.0


def test_probabilities_outside_zero_one_are_refused(abstractor, ngram):
    with pytest.raises(
        ProbabilityRangeError, match=r"probabilities \(identity\) leave \[0, 1\]; fix its to_probability"
    ):
        scorer = Overconfident(ngram)
        scorer.probability_mapping = "identity"
        score_grids(scorer, abstractor.grids(EVENTS[:1]))


def test_heatmap_is_a_png(lexicon, ngram, tmp_path):
    result = measure_consistency(ngram, EVENTS[:1], lexicon)
    path = save_heatmap(result.grids[0], tmp_path / "maps" / "dog.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in (tmp_path / "maps").iterdir()] == ["dog.png"]


def test_an_event_is_laid_out_from_its_lemmas_as_score_reads_it(ngram, lexicon):
    inflected = measure_consistency(ngram, [("dogs", "eats", "meat")], lexicon).grids[0]
    lemmas = measure_consistency(ngram, [EVENTS[0]], lexicon).grids[0]
    assert inflected.grid.event == EVENTS[0]
    np.testing.assert_array_equal(inflected.scores, lemmas.scores)
    as_given = measure_consistency(ngram, [("dogs", "eats", "meat")], lexicon, as_given=True).grids[0]
    assert as_given.grid.event == Triple("dogs", "eats", "meat")
    assert as_given.scores[-1, -1] != lemmas.scores[-1, -1]  # its own cell is the words as written

import pytest

from plausibility.corpus.filters import FilterStep, filter_triples
from plausibility.errors import PlausibilityError
from plausibility.triple import Triple

# Position counts: subjects dog 7, cat 3, owl 1; verbs eat 8, chase 3; objects bone 5, mouse 6.
COUNTS = {
    Triple("dog", "eat", "bone"): 5,
    Triple("dog", "chase", "mouse"): 2,
    Triple("cat", "eat", "mouse"): 3,
    Triple("owl", "chase", "mouse"): 1,
}


def test_min_count_checks_each_position_then_cap() -> None:
    kept, steps = filter_triples(COUNTS, min_count=3, max_repeat=4)
    # owl (1 as subject) fails; cat (3), chase (3), mouse (6) pass; dog-eat-bone capped from 5 to 4.
    assert kept == {
        Triple("dog", "eat", "bone"): 4,
        Triple("dog", "chase", "mouse"): 2,
        Triple("cat", "eat", "mouse"): 3,
    }
    assert steps == [
        FilterStep("extracted", 11, 4),
        FilterStep("min_count", 10, 3),
        FilterStep("max_repeat", 9, 3),
    ]


def test_word_counts_are_taken_before_the_cap() -> None:
    # With the cap first, dog would count 1 + 2 = 3 < 4 and everything would go; the paper filters first.
    kept, _ = filter_triples(COUNTS, min_count=4, max_repeat=1)
    assert kept == {Triple("dog", "eat", "bone"): 1}


def test_thresholds_of_one_keep_everything() -> None:
    kept, steps = filter_triples(COUNTS, min_count=1, max_repeat=1000)
    assert kept == COUNTS
    assert [step.occurrences for step in steps] == [11, 11, 11]


def test_thresholds_below_one_are_rejected() -> None:
    with pytest.raises(PlausibilityError, match="min_count and max_repeat must be at least 1, got 0 and 5"):
        filter_triples(COUNTS, min_count=0, max_repeat=5)

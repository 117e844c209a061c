from collections import Counter

import numpy as np
from scipy.stats import chisquare

from plausibility.corpus.negatives import expand, sample_negatives
from plausibility.triple import Triple

# Subject unigram: dog 6/10, cat 3/10, owl 1/10; object unigram: bone 5/10, mouse 4/10, seed 1/10.
COUNTS = {
    Triple("dog", "eat", "bone"): 5,
    Triple("dog", "chase", "mouse"): 1,
    Triple("cat", "chase", "mouse"): 3,
    Triple("owl", "eat", "seed"): 1,
}
N = 30_000


def test_expand_repeats_each_triple_in_sorted_order() -> None:
    events = expand(COUNTS)
    assert len(events) == 10
    assert events[:4] == [Triple("cat", "chase", "mouse")] * 3 + [Triple("dog", "chase", "mouse")]
    assert events[-1] == Triple("owl", "eat", "seed")


def _draws() -> tuple[list[Triple], list[Triple]]:
    events = expand(COUNTS) * (N // 10)
    return events, sample_negatives(events, np.random.default_rng(7))


def test_each_negative_keeps_the_verb_and_changes_only_the_chosen_slots() -> None:
    events, negatives = _draws()
    assert all(negative.verb == event.verb for event, negative in zip(events, negatives, strict=True))


def test_negative_words_follow_the_position_unigrams() -> None:
    events, negatives = _draws()
    # A negative subject is the original (1/3 of rows) or a unigram draw (2/3); the events are the corpus,
    # so both follow the unigram and so does the mix. Likewise for objects.
    subjects = Counter(negative.subject for negative in negatives)
    objects = Counter(negative.object for negative in negatives)
    # Both: a fair sampler fails p > 0.001 one seed in 1000; the seed is fixed, so the draw is too.
    assert chisquare([subjects[w] for w in ("dog", "cat", "owl")], [0.6 * N, 0.3 * N, 0.1 * N]).pvalue > 0.001
    assert chisquare([objects[w] for w in ("bone", "mouse", "seed")], [0.5 * N, 0.4 * N, 0.1 * N]).pvalue > 0.001


def test_perturbation_kinds_are_uniform() -> None:
    # Two subjects and two objects, each 1/2: a replaced slot changes with probability 1/2. With kinds
    # uniform over (s', v, o), (s, v, o'), (s', v, o'): only subject changed 1/6 + 1/12 = 1/4, only object
    # 1/4, both 1/12, neither 5/12. (Always replacing both would give 1/4 each.)
    events = [Triple("ant", "see", "cup"), Triple("bee", "see", "dish")] * (N // 2)
    negatives = sample_negatives(events, np.random.default_rng(11))
    changed = Counter(
        (negative.subject != event.subject, negative.object != event.object)
        for event, negative in zip(events, negatives, strict=True)
    )
    observed = [changed[(False, False)], changed[(True, False)], changed[(False, True)], changed[(True, True)]]
    # a fair sampler fails this one seed in 1000; the seed is fixed
    assert chisquare(observed, [N * 5 / 12, N / 4, N / 4, N / 12]).pvalue > 0.001


def test_same_seed_same_negatives_other_seed_differs() -> None:
    events = expand(COUNTS)
    first = sample_negatives(events, np.random.default_rng(0))
    assert first == sample_negatives(events, np.random.default_rng(0))
    assert first != sample_negatives(events, np.random.default_rng(1))

"""Frequency filters and the per-triple cap (thesis section 6.5.1), with counts after each step."""

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from plausibility.errors import PlausibilityError
from plausibility.triple import Triple


@dataclass(frozen=True, slots=True)
class FilterStep:
    """Size of the triple table after one step: occurrences (with repeats) and unique events."""

    step: str
    occurrences: int
    unique: int


def _step(name: str, counts: Mapping[Triple, int]) -> FilterStep:
    return FilterStep(name, sum(counts.values()), len(counts))


def filter_triples(
    counts: Mapping[Triple, int], min_count: int, max_repeat: int
) -> tuple[dict[Triple, int], list[FilterStep]]:
    """Drop rare words, then cap repeated events.

    A triple is kept when its subject, its verb and its object each occur at least `min_count` times in
    that position over all extracted occurrences (one pass, counted before the cap, as in the paper: 1000
    on all of Wikipedia). Kept counts are then capped at `max_repeat` (paper: 1000).

    Returns:
        The filtered counts and the sizes after `extracted`, `min_count` and `max_repeat`.
    """
    if min_count < 1 or max_repeat < 1:
        raise PlausibilityError(f"min_count and max_repeat must be at least 1, got {min_count} and {max_repeat}")
    subjects, verbs, objects = Counter(), Counter(), Counter()
    for triple, count in counts.items():
        subjects[triple.subject] += count
        verbs[triple.verb] += count
        objects[triple.object] += count
    frequent = {
        triple: count
        for triple, count in counts.items()
        if min(subjects[triple.subject], verbs[triple.verb], objects[triple.object]) >= min_count
    }
    capped = {triple: min(count, max_repeat) for triple, count in frequent.items()}
    steps = [_step("extracted", counts), _step("min_count", frequent), _step("max_repeat", capped)]
    return capped, steps

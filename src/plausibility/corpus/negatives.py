"""Pseudo-negative events by position-wise unigram sampling (SPEC section 4; Porada et al. 2021)."""

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from plausibility.errors import DataFormatError
from plausibility.triple import Triple

# Which slots a perturbation replaces, drawn uniformly: (s', v, o), (s, v, o'), (s', v, o').
PERTURBATIONS = ("subject", "object", "both")


def expand(counts: Mapping[Triple, int]) -> list[Triple]:
    """One entry per occurrence, sorted by (subject, verb, object)."""
    return [
        triple for triple in sorted(counts, key=lambda t: (t.subject, t.verb, t.object)) for _ in range(counts[triple])
    ]


def _unigram(words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    frequencies = Counter(words)
    vocabulary = np.array(sorted(frequencies), dtype=object)  # sorted: Counter order follows input order
    weights = np.array([frequencies[word] for word in vocabulary], dtype=np.float64)
    return vocabulary, weights / weights.sum()


def sample_negatives(events: Sequence[Triple], rng: np.random.Generator) -> list[Triple]:
    """One perturbed event per attested occurrence, aligned with `events`.

    `s'` and `o'` come from the unigram distribution of their position over `events` (each occurrence
    counts once). As in the paper, a draw may reproduce the attested word; nothing is resampled.
    """
    if not events:
        raise DataFormatError("no attested events to perturb; the triples table is empty")
    subjects, subject_p = _unigram([event.subject for event in events])
    objects, object_p = _unigram([event.object for event in events])
    kinds = rng.integers(0, len(PERTURBATIONS), size=len(events))
    new_subjects = subjects[rng.choice(len(subjects), size=len(events), p=subject_p)]
    new_objects = objects[rng.choice(len(objects), size=len(events), p=object_p)]
    negatives = []
    for event, kind, subject, obj in zip(events, kinds, new_subjects, new_objects, strict=True):
        negatives.append(
            Triple(subject if kind != 1 else event.subject, event.verb, obj if kind != 0 else event.object)
        )
    return negatives

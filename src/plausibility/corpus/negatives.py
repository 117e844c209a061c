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


def _unigram(words: Sequence[str], smoothing: float) -> tuple[np.ndarray, np.ndarray]:
    frequencies = Counter(words)
    vocabulary = np.array(sorted(frequencies), dtype=object)  # sorted: Counter order follows input order
    weights = np.array([frequencies[word] for word in vocabulary], dtype=np.float64) ** smoothing
    return vocabulary, weights / weights.sum()


def sample_negatives(events: Sequence[Triple], rng: np.random.Generator, smoothing: float = 1.0) -> list[Triple]:
    """One perturbed event per attested occurrence, aligned with `events`.

    `s'` and `o'` come from the unigram distribution of their position over `events` (each occurrence
    counts once), each frequency raised to the power `smoothing` and renormalised: 1 is the paper's
    unigram, 0 uniform over the position's words, and in between (word2vec's 0.75) rare words are drawn
    more often than their frequency, so the nets see them in negatives too. As in the paper, a draw may
    reproduce the attested word; nothing is resampled.
    """
    if not events:
        raise DataFormatError("no attested events to perturb; the triples table is empty")
    if not 0 <= smoothing <= 1:
        raise DataFormatError(f"the negatives' smoothing exponent must be in [0, 1], got {smoothing}")
    subjects, subject_p = _unigram([event.subject for event in events], smoothing)
    objects, object_p = _unigram([event.object for event in events], smoothing)
    kinds = rng.integers(0, len(PERTURBATIONS), size=len(events))
    new_subjects = subjects[rng.choice(len(subjects), size=len(events), p=subject_p)]
    new_objects = objects[rng.choice(len(objects), size=len(events), p=object_p)]
    negatives = []
    for event, kind, subject, obj in zip(events, kinds, new_subjects, new_objects, strict=True):
        negatives.append(
            Triple(
                subject if kind != 1 else event.subject,
                event.verb,
                obj if kind != 0 else event.object,
            )
        )
    return negatives

"""The n-gram baseline: `P(s, o | v)` from subject-verb and verb-object counts (thesis eq. 6.1)."""

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from plausibility.triple import Triple

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class BigramCounts:
    """Counts of (subject, verb) and (verb, object) pairs and of verbs, from counted triples (kept too)."""

    triple: Mapping[Triple, int]
    subject_verb: Mapping[tuple[str, str], int]
    verb_object: Mapping[tuple[str, str], int]
    verb: Mapping[str, int]
    n_subjects: int
    n_objects: int

    @classmethod
    def from_table(cls, table: "pd.DataFrame") -> "BigramCounts":
        """The counts of a table with columns subject, verb, object, count (one row per distinct triple).

        Summed by pandas, not row by row: the bundled triples count in a fraction of a second, which is most
        of what loading this baseline costs. The counts by triple, which only leave-one-out scoring reads,
        are built on first use.
        """
        count = table["count"].astype("int64")
        subject_verb = count.groupby([table["subject"], table["verb"]], sort=False).sum()
        verb_object = count.groupby([table["verb"], table["object"]], sort=False).sum()
        verb = count.groupby(table["verb"], sort=False).sum()
        return cls(
            _TripleCounts(table),
            dict(zip(subject_verb.index, subject_verb.tolist(), strict=True)),
            dict(zip(verb_object.index, verb_object.tolist(), strict=True)),
            dict(zip(verb.index, verb.tolist(), strict=True)),
            int(table["subject"].nunique()),
            int(table["object"].nunique()),
        )

    @classmethod
    def from_triples(cls, counts: Mapping[Triple, int]) -> "BigramCounts":
        subject_verb: Counter[tuple[str, str]] = Counter()
        verb_object: Counter[tuple[str, str]] = Counter()
        verb: Counter[str] = Counter()
        for triple, count in counts.items():
            subject_verb[triple.subject, triple.verb] += count
            verb_object[triple.verb, triple.object] += count
            verb[triple.verb] += count
        subjects = {subject for subject, _ in subject_verb}
        objects = {obj for _, obj in verb_object}
        return cls(dict(counts), dict(subject_verb), dict(verb_object), dict(verb), len(subjects), len(objects))


class _TripleCounts(Mapping[Triple, int]):
    """A count table's counts by triple, as a mapping built on first use."""

    def __init__(self, table: "pd.DataFrame") -> None:
        self._table: pd.DataFrame | None = table
        self._counts: dict[Triple, int] = {}

    def _built(self) -> dict[Triple, int]:
        if self._table is not None:
            rows = zip(self._table["subject"], self._table["verb"], self._table["object"], strict=True)
            counts = self._table["count"].tolist()
            for (subject, verb, obj), count in zip(rows, counts, strict=True):
                triple = Triple(subject, verb, obj)
                self._counts[triple] = self._counts.get(triple, 0) + count
            self._table = None
        return self._counts

    def __getitem__(self, triple: Triple) -> int:
        return self._built()[triple]

    def __iter__(self) -> Iterator[Triple]:
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())


class NgramScorer:
    """`log P(s, o | v)` with `P(s, o | v) ≈ P(s | v) · P(o | v)`, each estimated with add-k smoothing.

    Unseen counts: `P(s | v) = (C(s, v) + k) / (C(v) + k · (|S| + 1))`, with `|S|` the number of distinct
    subjects in the counts and one more type for every subject never seen; `P(o | v)` likewise. With
    `k = 0` the product is exactly the thesis's `C(s, v) · C(v, o) / C(v)²`, and any unseen pair scores
    `-inf`; with `k > 0` every score is finite, and an unseen verb gives the uniform `1 / (|S| + 1)`.

    Args:
        counts: pair and verb counts from the training triples.
        k: the pseudo-count added to every pair (0.5, Jeffreys-Perks, by default); non-negative.
    """

    probability_mapping = "exp of the log score: the smoothed estimate of P(s, o | v) itself"
    lexicon = None  # counted, not trained on nouns: grids are laid out in the bundled lexicon

    def __init__(self, counts: BigramCounts, k: float = 0.5) -> None:
        if not k >= 0:
            raise ValueError(f"the add-k pseudo-count must be non-negative, got {k}")
        self.counts = counts
        self.k = k

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """Natural-log `P(s, o | v)` of each triple; shape (len(triples),), input order."""
        return self._log_probability(triples, np.zeros(len(triples)))

    def held_out_score(self, triples: Sequence[Triple]) -> np.ndarray:
        """`score` with each triple's own count taken out of its pair and verb counts (leave one out).

        An event of the counts then scores as an event never seen would, which is what its calibration
        must be fitted on: in-sample, every attested event of the calibration slice has its pairs counted,
        and the map learnt from them is far too sure of unseen pairs. The numbers of distinct subjects and
        objects are kept as they are.
        """
        return self._log_probability(triples, np.array([self.counts.triple.get(t, 0) for t in triples]))

    def _log_probability(self, triples: Sequence[Triple], own: np.ndarray) -> np.ndarray:
        """`log P(s, o | v)` from the counts less `own` (each triple's count to leave out)."""
        k, counts = self.k, self.counts
        subject_verb = np.array([counts.subject_verb.get((t.subject, t.verb), 0) for t in triples]) - own
        verb_object = np.array([counts.verb_object.get((t.verb, t.object), 0) for t in triples]) - own
        verb = np.array([counts.verb.get(t.verb, 0) for t in triples]) - own
        with np.errstate(divide="ignore", invalid="ignore"):  # k = 0: log 0 = -inf, and 0 / 0 for unseen verbs
            subject = (subject_verb + k) / (verb + k * (counts.n_subjects + 1))
            obj = (verb_object + k) / (verb + k * (counts.n_objects + 1))
            scores = np.log(subject) + np.log(obj)
        return np.where(np.isnan(scores), -np.inf, scores)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return np.exp(np.asarray(scores, dtype=np.float64))

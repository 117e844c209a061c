"""The Python API: the same verbs as the command line, taking plain tuples as well as `Triple`s."""

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from plausibility.corpus.artefacts import TRIPLE_COLUMNS
from plausibility.devices import DType
from plausibility.errors import PlausibilityError
from plausibility.query.batch import BatchResult, score_table
from plausibility.query.explain import Explanation, at_min_depth, explain
from plausibility.query.triple_files import triple_problem
from plausibility.scorers import default_scorer
from plausibility.scorers import load_scorer as _build_scorer
from plausibility.scoring.protocols import TripleScorer
from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import AbstractionGrid
    from plausibility.lexicon.training_lexicon import TrainingLexicon

TripleLike = Triple | tuple[str, str, str] | Sequence[str]


def as_triples(triples: Iterable[TripleLike]) -> list[Triple]:
    """`Triple`s from triples or 3-sequences of words (lowercased, stripped); anything else is an error."""
    converted = []
    for index, item in enumerate(triples):
        if isinstance(item, Triple):
            converted.append(item)
            continue
        words = list(item) if not isinstance(item, str) else item.split()
        if len(words) != 3 or not all(isinstance(w, str) for w in words):
            raise PlausibilityError(f"item {index} ({item!r}) is not a triple; give (subject, verb, object) words")
        problem = triple_problem(dict(zip(TRIPLE_COLUMNS, words, strict=True)))
        if problem:  # the rule files and the command line follow: one lemma per slot
            raise PlausibilityError(f"item {index} ({item!r}): {problem}; give one word (a lemma) for each of S V O")
        converted.append(Triple(*(w.strip().lower() for w in words)))
    return converted


class Scorer:
    """A loaded scorer with the CLI's verbs; itself a `TripleScorer`, so it plugs in anywhere one does."""

    def __init__(self, scorer: TripleScorer, spec: str) -> None:
        self.scorer = scorer
        self.spec = spec
        self.probability_mapping = scorer.probability_mapping

    def __repr__(self) -> str:
        return f"Scorer({self.spec!r})"

    def score(self, triples: Iterable[TripleLike]) -> np.ndarray:
        """The scorer's own score of each triple (higher is more plausible), input order."""
        return np.asarray(self.scorer.score(as_triples(triples)), dtype=np.float64)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return self.scorer.to_probability(scores)

    @property
    def lexicon(self) -> "TrainingLexicon | None":
        """The lexicon the wrapped scorer lays its grids out in, if it has its own."""
        return getattr(self.scorer, "lexicon", None)

    def grid_scores(self, grids: Sequence["AbstractionGrid"], batch_size: int = 1024, progress: bool = False) -> list:
        """Every grid cell's score as the wrapped scorer gives it (ConceptMax: its running maximum)."""
        from plausibility.scoring.cells import grid_scores

        return grid_scores(self.scorer, grids, batch_size=batch_size, progress=progress)

    def probability(self, triples: Iterable[TripleLike]) -> np.ndarray:
        """Scores mapped into [0, 1] by the scorer's `probability_mapping`."""
        return self.to_probability(self.score(triples))

    def explain(self, triples: Iterable[TripleLike], top: int = 3, min_depth: int | None = None) -> list[Explanation]:
        """The abstraction of each event's grid that scores highest, with the best `top` of them.

        `min_depth` lays the grids out from hypernyms at least that deep (default: the scorer's lexicon's);
        a ConceptMax then takes its maximum over those grids too, so its score is the best one listed.
        """
        return explain(at_min_depth(self.scorer, min_depth), as_triples(triples), top=top, min_depth=min_depth)

    def score_file(
        self,
        source: Path | str,
        output: Path | str,
        batch_size: int = 4096,
        skip_invalid: bool = False,
        as_given: bool = False,
    ) -> BatchResult:
        """`plausibility score --input SOURCE --output OUTPUT`: streamed, order-keeping, atomic.

        As there, each triple is scored as its lemmas (`QueryLemmas`) unless `as_given`; `score` and
        `probability` take the words as given, as every `TripleScorer` does.
        """
        from plausibility.query.coverage import coverage_flags
        from plausibility.query.lemmas import QueryLemmas

        lemmas = None if as_given else QueryLemmas(coverage_flags(self.scorer).hierarchy)
        return score_table(
            self.scorer, Path(source), Path(output), batch_size, skip_invalid, progress=False, lemmas=lemmas
        )


def load_scorer(
    spec: str | None = None,
    *,
    device: str | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
) -> Scorer:
    """The scorer a SPEC names (`ngram`, `zero-shot:gpt2`, `conceptmax:<SPEC>`, `runs/x/last.ckpt`, ...).

    Args:
        spec: the SPEC; None is the default scorer (`plausibility.scorers.default_scorer()`, offline).
        device: `cpu`, `cuda`, `cuda:N`, `mps` or `auto`; None keeps each scorer's default.
        dtype: `float32` (the default), `bfloat16` or `float16`.
        batch_size: sequences or triples per forward pass; None keeps each scorer's default.
    """
    spec = spec or default_scorer()
    return Scorer(_build_scorer(spec, device=device, dtype=dtype, batch_size=batch_size), spec)

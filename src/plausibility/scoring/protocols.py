"""The two contracts that keep models, baselines, language models and suites interchangeable."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

import numpy as np

from plausibility.triple import Triple

if TYPE_CHECKING:
    from plausibility.lexicon.abstractions import Abstraction, AbstractionGrid

Reduction = Literal["sum", "mean"]


@runtime_checkable
class TripleScorer(Protocol):
    """Anything that scores events: a trained model, a baseline, a zero-shot LM, a ConceptMax wrapper.

    `score` returns one float per triple, in input order, higher meaning more plausible. The scale is the
    scorer's own (a logit, a natural-log score, a count ratio); `to_probability` maps those scores into
    [0, 1] monotonically for metrics that need probabilities (CCΔ, LER), and `probability_mapping` names
    that map in words (e.g. "sigmoid of the logit") so reports can say which was used.
    """

    probability_mapping: str

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """Score each triple; shape (len(triples),), float64, input order."""
        ...

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        """Map scores from `score` into [0, 1], preserving their order."""
        ...


def can_hold_out(scorer: TripleScorer) -> bool:
    """Whether `scorer` has a `held_out_score`: each event scored as if left out of the counts it was fitted on.

    A scorer counted from the training triples (the n-gram) can do so, and calibrations are fitted on those
    scores, so that they hold for events never seen. The method is found by attribute, not by protocol, so
    a wrapper that reads attributes through to the scorer it wraps (a CalibratedScorer) has it too.
    """
    return getattr(scorer, "held_out_score", None) is not None


def held_out_scores(scorer: TripleScorer, triples: Sequence[Triple]) -> np.ndarray:
    """`scorer.held_out_score(triples)` where the scorer has one (`can_hold_out`), else `scorer.score(triples)`."""
    return scorer.held_out_score(triples) if can_hold_out(scorer) else scorer.score(triples)  # type: ignore[attr-defined]


@runtime_checkable
class AbstractionScorer(TripleScorer, Protocol):
    """A TripleScorer that also reads the senses of grid cells (a net given hypernym chains as input).

    Grid cells are scored through `score_abstractions`, so a cell keeps the senses of its event's chains
    instead of being disambiguated again from its words.
    """

    def score_abstractions(self, abstractions: Sequence["Abstraction"]) -> np.ndarray:
        """Score each abstraction; shape (len(abstractions),), float64, input order."""
        ...


@runtime_checkable
class GridScorer(TripleScorer, Protocol):
    """A TripleScorer whose score of a grid cell depends on other cells of the grid (ConceptMax)."""

    def grid_scores(
        self, grids: Sequence["AbstractionGrid"], batch_size: int = 1024, progress: bool = False
    ) -> list[np.ndarray]:
        """Each grid's cell scores, shape `grid.shape`, input order."""
        ...


@runtime_checkable
class LanguageModelScorer(Protocol):
    """Log-probabilities of texts under a language model, in natural log.

    Contexts and continuations are joined with one space (`context + " " + continuation`) and tokenised
    once; only the continuation's tokens are scored, chosen by character offsets: every token that
    overlaps the joining space or the continuation (so " The", which carries the space, is the
    continuation's). An empty context scores the continuation as a whole text (from the
    beginning-of-sequence token). Outputs follow input order, as float64 arrays.
    """

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Per-token log-probabilities of each whole text (every token scored)."""
        ...

    def text_logprob(self, texts: Sequence[str], reduction: Reduction = "sum") -> np.ndarray:
        """Log-probability of each whole text, reduced over its tokens."""
        ...

    def conditional_logprob(
        self, contexts: Sequence[str], continuations: Sequence[str], reduction: Reduction = "sum"
    ) -> np.ndarray:
        """`log P(continuation | context)` for each aligned pair, reduced over the continuation's tokens."""
        ...

"""`load_scorer` and `Scorer`: a loaded scorer with the command line's verbs, reading events as `score` does."""

import math
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path

import numpy as np

from plausibility.devices import DType
from plausibility.errors import InvalidTripleError
from plausibility.lexicon.event_lemmas import EventLemmas
from plausibility.lexicon.training_lexicon import TrainingLexicon, lexicon_of
from plausibility.query.batch import Annotator, BatchResult, TripleColumns, score_table, score_triples
from plausibility.query.coverage import coverage_flags
from plausibility.query.explain import (
    Explanation,
    ExplanationColumns,
    GridProbabilities,
    at_min_depth,
    explain,
    explains_itself,
    grid_probabilities,
)
from plausibility.query.triple_files import scored_word, triple_problem
from plausibility.scorers.protocol import TripleScorer
from plausibility.scorers.registry import build_scorer
from plausibility.scorers.shipped import DEFAULT_MODEL, shipped_versions
from plausibility.scorers.stack import Reason, stack_of
from plausibility.triple import TRIPLE_COLUMNS, Triple

TripleLike = Triple | tuple[str, str, str] | Sequence[str]


def as_triples(triples: Iterable[TripleLike]) -> list[Triple]:
    """`Triple`s from triples or 3-sequences of words (lowercased, stripped); anything else is an `InvalidTripleError`
    (a `ValueError`), `Triple`s included: a word too long or not a word never reaches a model."""
    converted = []
    for index, item in enumerate(triples):
        words = [item.subject, item.verb, item.object] if isinstance(item, Triple) else item
        words = list(words) if not isinstance(words, str) else words.split()
        if len(words) != 3 or not all(isinstance(w, str) for w in words):
            raise InvalidTripleError(
                f"item {index} ({_shown(item)}) is not a triple; give (subject, verb, object) words"
            )
        problem = triple_problem(dict(zip(TRIPLE_COLUMNS, words, strict=True)))
        if problem:  # the rule files and the command line follow: one lemma per slot
            raise InvalidTripleError(
                f"item {index} ({_shown(item)}): {problem}; give one word (a lemma) for each of S V O"
            )
        converted.append(item if isinstance(item, Triple) else Triple(*map(scored_word, words)))
    return converted


def _shown(item: object) -> str:
    """An item as an error quotes it, cut short: an item holding a huge word is not printed whole."""
    text = repr(item)
    return text if len(text) <= 80 else text[:77] + "..."


class Scorer:
    """A loaded scorer with the command line's verbs, each reading an event as `plausibility score` does.

    Every verb scores each event as its lemmas (`person eat apples` as `person eat apple`: every model and count
    here was trained on lemmas), as the command line and `score_file` do; `as_given=True` scores the words as
    they are. `scorer` is the underlying `TripleScorer`, which scores triples as they come; the evaluation
    (`plausibility.evaluate`) reads benchmark events as lemmas too.
    """

    # The fields of a record that say where it came from, after the event's own.
    PROVENANCE = ("model", "shipped_models", "probability_mapping", "precision")

    def __init__(
        self, scorer: TripleScorer, spec: str, min_depth: int | None = None, precision: str = "float32"
    ) -> None:
        """Args:
        scorer: the scorer; a ConceptMax takes its maximum over grids of `min_depth` where it is given.
        spec: the SPEC it was built from, for reports.
        min_depth: lay abstraction grids out from hypernyms at least this deep (default: the scorer's own).
        precision: what its models run in, as records report it (a stack's own: its language model's).
        """
        self.scorer = at_min_depth(scorer, min_depth)
        self.spec = spec
        self.min_depth = min_depth
        stack = stack_of(scorer)
        self.precision = stack.precision if stack is not None else precision

    def __repr__(self) -> str:
        return f"Scorer({self.spec!r})"

    @property
    def probability_mapping(self) -> str:
        """What a probability means, in one line (e.g. calibrated on human judgements)."""
        return self.scorer.probability_mapping

    @property
    def lexicon(self) -> TrainingLexicon:
        """The lexicon the scorer's grids are laid out in: its own, else the bundled one."""
        return lexicon_of(self.scorer.lexicon)

    @cached_property
    def _lemmas(self) -> EventLemmas:
        return EventLemmas(self.lexicon.hierarchy)

    def as_scored(self, triples: Iterable[TripleLike], as_given: bool = False) -> list[Triple]:
        """The events as they are scored: their lemmas, or (`as_given`) the words as they are."""
        given = as_triples(triples)
        return given if as_given else self._lemmas(given)

    def score(self, triples: Iterable[TripleLike], as_given: bool = False) -> np.ndarray:
        """The scorer's own score of each event (higher is more plausible), input order."""
        return np.asarray(self.scorer.score(self.as_scored(triples, as_given)), dtype=np.float64)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        """Scores from `score` mapped into [0, 1], as `probability_mapping` says."""
        return self.scorer.to_probability(scores)

    def probability(self, triples: Iterable[TripleLike], as_given: bool = False) -> np.ndarray:
        """Each event's probability in [0, 1], as `probability_mapping` says."""
        return self.to_probability(self.score(triples, as_given))

    def explain(self, triples: Iterable[TripleLike], top: int = 3, as_given: bool = False) -> list[Explanation]:
        """The abstraction of each event's grid that scores highest, with the best `top` of them.

        The grids are laid out as the scorer's (`min_depth`); a ConceptMax takes its maximum over the same
        grids, so its score is the best abstraction listed.
        """
        return explain(self.scorer, self.as_scored(triples, as_given), top=top, min_depth=self.min_depth)

    def reasons(self, triples: Iterable[TripleLike], as_given: bool = False) -> list[list[Reason]]:
        """Why each event is judged less plausible, in words: a stacked model's restriction and role-reversal
        features that pull its log-odds down the most (none for any other model, or where none pulls much)."""
        scored = self.as_scored(triples, as_given)
        stack = stack_of(self.scorer)
        return stack.reasons(scored) if stack is not None else [[] for _ in scored]

    def grids(self, triples: Iterable[TripleLike], as_given: bool = False) -> list[GridProbabilities]:
        """Each event's abstraction grid with every cell's probability: what `explain` ranks, for drawing it."""
        return grid_probabilities(self.scorer, self.as_scored(triples, as_given), min_depth=self.min_depth)

    def _answers(self, triples: Iterable[TripleLike], as_given: bool = False) -> list[dict[str, object]]:
        """Each event's own fields: the words as given, the score and probability, the lemmas scored
        (`lemmatised`: whether any word changed) and the coverage `flags`."""
        given = as_triples(triples)
        lemmas = None if as_given else self._lemmas
        table = score_triples(self.scorer, given, lemmas, annotators=[coverage_flags(self.scorer)])
        return [{str(key): _plain(value) for key, value in row.items()} for row in table.to_dict("records")]

    def records(
        self, triples: Iterable[TripleLike], as_given: bool = False, explain: bool = False, top: int = 3
    ) -> list[dict[str, object]]:
        """Each event's JSON object as `plausibility score S V O --json` prints it, and the HTTP API gives it.

        The words as given, the score and probability, the lemmas scored (`lemmatised`: whether any word
        changed) and the coverage `flags`, then (`PROVENANCE`) the model's name, the versions of the shipped
        models it reads, what its probability means and the precision it ran in, so a record read alone says
        where it came from; with `explain` (always for a ConceptMax, whose
        score is its best abstraction) the `explanation` as `Explanation.record` gives it.
        """
        given = as_triples(triples)
        shared = {
            "model": self.spec,
            "shipped_models": shipped_versions(self.spec),
            "probability_mapping": self.probability_mapping,
            "precision": self.precision,
        }
        records = [{**answer, **shared} for answer in self._answers(given, as_given)]
        if explain or explains_itself(self.scorer):
            for record, explanation in zip(records, self.explain(given, top, as_given), strict=True):
                record["explanation"] = explanation.record()
        if explain and stack_of(self.scorer) is not None:
            for record, reasons in zip(records, self.reasons(given, as_given), strict=True):
                record["reasons"] = [reason.record() for reason in reasons]
        return records

    def table_columns(self, as_given: bool = False, explain: bool = False) -> TripleColumns:
        """What `score_file` adds to each row: a record's own fields, and with `explain` (always for a ConceptMax)
        the abstraction that scores highest and its probability."""
        annotators: list[Annotator] = [coverage_flags(self.scorer)]
        if explain or explains_itself(self.scorer):
            annotators.append(ExplanationColumns(self.scorer, self.min_depth))
        return TripleColumns(self.scorer, None if as_given else self._lemmas, annotators)

    def score_file(
        self,
        source: Path | str,
        output: Path | str,
        chunk_size: int = 4096,
        skip_invalid: bool = False,
        as_given: bool = False,
        explain: bool = False,
        progress: bool = False,
    ) -> BatchResult:
        """`plausibility score --input SOURCE --output OUTPUT` in this process: streamed, order-keeping, each
        distinct triple scored once; into one file written all at once, or a folder of parts (a path with no
        suffix) that a rerun resumes. The table gets the columns of `table_columns`."""
        identity = run_identity(self.spec, as_given, explain, self.min_depth)
        return score_table(
            self.table_columns(as_given, explain), Path(source), Path(output), chunk_size, skip_invalid, progress,
            identity,
        )  # fmt: skip


def run_identity(spec: str, as_given: bool, explain: bool, min_depth: int | None) -> dict[str, object]:
    """What a part folder records of the run that writes it: one process or many, a rerun must match it."""
    return {"model": spec, "as_given": as_given, "explain": explain, "min_depth": min_depth}


def _plain(value: object) -> object:
    """A table value as JSON has it: numpy scalars as Python numbers, NaN as null."""
    value = value.item() if hasattr(value, "item") else value
    return None if isinstance(value, float) and math.isnan(value) else value


def load_scorer(
    spec: str | None = None,
    *,
    device: str | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
    min_depth: int | None = None,
) -> Scorer:
    """The scorer a SPEC names (`ngram`, `zero-shot:gpt2`, `conceptmax:<SPEC>`, `runs/x/last.ckpt`, ...).

    Args:
        spec: the SPEC; None (or `"default"`) is the shipped default model (`plausibility models default`).
        device: `cpu`, `cuda`, `cuda:N`, `mps` or `auto`; None keeps each scorer's default.
        dtype: `float32`, `bfloat16` or `float16`; None keeps each scorer's own (float32, but the default model's
            language model runs in bfloat16 on a CPU with bfloat16 units, with a calibration of its own).
        batch_size: sequences or triples per forward pass; None keeps each scorer's default.
        min_depth: lay abstraction grids (`explain`'s, and a ConceptMax's maximum) out from hypernyms at least
            this many levels below WordNet's root; None keeps the scorer's own (the thesis's is 4).
    """
    spec = spec or DEFAULT_MODEL
    scorer = build_scorer(spec, device=device, dtype=dtype, batch_size=batch_size)
    return Scorer(scorer, spec, min_depth, dtype or "float32")

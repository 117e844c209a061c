"""Scoring a table of triples of any size: streamed, order-preserving, each distinct triple once, on one core or
every core, into one file written all at once or a folder of parts that a rerun resumes."""

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from plausibility.errors import DataFormatError
from plausibility.lexicon.event_lemmas import EventLemmas
from plausibility.progress import progress_bar
from plausibility.query.part_folder import PartFolder, is_part_folder
from plausibility.query.scored_memo import ScoredMemo
from plausibility.query.triple_files import InvalidLine, read_triple_chunks
from plausibility.scorers.protocol import TripleScorer
from plausibility.tables import TableWriter
from plausibility.triple import Triple
from plausibility.workers import Factory, InlinePool, pool_of

# Extra output columns for a chunk of triples, e.g. coverage flags or the abstraction that explains a score.
Annotator = Callable[[Sequence[Triple]], dict[str, list[object]]]

_SHOWN_INVALID = 10


@dataclass(frozen=True)
class BatchResult:
    """What a batch run wrote: rows scored, and the invalid lines it skipped."""

    output: Path
    rows: int
    skipped: list[InvalidLine]


def _listing(invalid: list[InvalidLine]) -> str:
    shown = "; ".join(f"line {line.line}: {line.reason}" for line in invalid[:_SHOWN_INVALID])
    more = f" (and {len(invalid) - _SHOWN_INVALID} more)" if len(invalid) > _SHOWN_INVALID else ""
    return shown + more


def _describe(path: Path, invalid: list[InvalidLine]) -> str:
    return f"{path}: {len(invalid)} lines are not triples: {_listing(invalid)}"


def checked_invalid_lines(path: Path, skip_invalid: bool) -> list[InvalidLine]:
    """`find_invalid_lines`, and unless they are to be skipped, an error naming them (before anything is scored)."""
    invalid = find_invalid_lines(path)
    if invalid and not skip_invalid:
        raise DataFormatError(_describe(path, invalid) + "; fix them or pass --skip-invalid")
    return invalid


def find_invalid_lines(path: Path) -> list[InvalidLine]:
    """Every row of a triple table that is not a triple (one cheap streaming pass, no scoring).

    A table with no triple at all is an error: empty, only a header, or (with every line invalid) nothing
    that could be scored.
    """
    valid = 0
    invalid: list[InvalidLine] = []
    for chunk in read_triple_chunks(path):
        valid += len(chunk.rows)
        invalid.extend(chunk.invalid)
    if valid:
        return invalid
    if invalid:
        raise DataFormatError(f"{path}: none of its lines is a triple ({_listing(invalid)})")
    if path.stat().st_size == 0:
        raise DataFormatError(f"{path}: the file is empty; give a table with one subject, verb, object triple per line")
    raise DataFormatError(f"{path}: only a header and no triples; add one subject, verb, object per line")


class TripleColumns:
    """What a scored table adds for each triple as given: `score`, `probability`, with `lemmas` the lemma
    columns (each triple scored in its lemma form), and each annotator's columns (on the triples as scored)."""

    def __init__(
        self, scorer: TripleScorer, lemmas: EventLemmas | None = None, annotators: Sequence[Annotator] = ()
    ) -> None:
        self.scorer = scorer
        self.lemmas = lemmas
        self.annotators = list(annotators)

    def __call__(self, given: Sequence[Triple]) -> pd.DataFrame:
        triples = self.lemmas(given) if self.lemmas else list(given)
        scores = self.scorer.score(triples) if triples else np.zeros(0)
        columns: dict[str, object] = {"score": scores, "probability": self.scorer.to_probability(scores)}
        if self.lemmas:
            columns |= self.lemmas.columns(given, triples)
        for annotate in self.annotators:
            columns |= annotate(triples) if triples else {}
        return pd.DataFrame(columns)


# Chunks scored between two checks of the memory of scored triples: a fixed number up to two workers, so that what
# is remembered (and so every score) does not depend on whether one or two share the work; more workers get
# waves of two chunks each, so that few wait idle while the others finish theirs.
CHUNKS_PER_WAVE = 4


def score_table(
    scoring: TripleColumns | Sequence[Factory],
    source: Path,
    output: Path,
    chunk_size: int = 4096,
    skip_invalid: bool = False,
    progress: bool = True,
    identity: Mapping[str, object] | None = None,
    memory: int = 1_000_000,
) -> BatchResult:
    """Score every triple of `source` into `output`, keeping order and extra columns.

    `scoring` is what a chunk's rows get: the `TripleColumns` to score with in this process, or one picklable
    factory per worker, each building its own (several: in worker processes, scoring chunks in parallel; a
    single one: here). Each distinct triple is scored once per run (the last `memory` of them are remembered
    across chunks). Invalid rows stop the run before anything is written, unless `skip_invalid`.

    `output` is a table file (any table format), written whole or not at all; or a folder (a path with no
    suffix), which receives a Parquet part per chunk of `chunk_size` rows and a manifest:
    rerun the same command after an interruption and it goes on from the last finished part, with the
    table it ends with equal, row for row, to an uninterrupted run's. `identity` (the model and options) is
    what a resumed folder must have been written with.
    """
    if source.resolve() == output.resolve():
        raise DataFormatError(f"{output}: output would overwrite the input; choose another --output path")
    invalid = checked_invalid_lines(source, skip_invalid)
    memo = ScoredMemo(memory)
    sharded = is_part_folder(output)
    writer = (
        PartFolder(output, source, chunk_size, {**(identity or {}), "skip_invalid": skip_invalid})
        if sharded
        else TableWriter(output)
    )
    pool = InlinePool(scoring) if isinstance(scoring, TripleColumns) else pool_of(scoring)
    rows = 0
    with writer, pool, progress_bar("scoring", None, "triples", wanted=progress) as advance:
        chunks = enumerate(read_triple_chunks(source, chunk_size))
        while wave := list(itertools.islice(chunks, max(CHUNKS_PER_WAVE, 2 * pool.size))):
            givens = [_given(chunk.rows) for _, chunk in wave]
            done = [sharded and writer.finished(index) for index, _ in wave]  # type: ignore[union-attr]
            units = []
            for given, (index, chunk), finished in zip(givens, wave, done, strict=True):
                if finished:  # a part an interrupted run wrote: what it remembered is read back, not scored
                    part = writer.read(index)  # type: ignore[union-attr]
                    memo.remember(given, part.drop(columns=list(chunk.rows.columns)))
                else:
                    units.append(memo.claim(given))
            results = iter(pool.map(units))
            for given, (index, chunk), finished in zip(givens, wave, done, strict=True):
                if not finished:
                    unit = units.pop(0)
                    memo.remember(unit, next(results))
                    frame = pd.concat([chunk.rows.reset_index(drop=True), memo.table(given)], axis=1)
                    if sharded:
                        writer.write_part(index, frame)  # type: ignore[union-attr]
                    else:
                        writer.write(frame)  # type: ignore[union-attr]
                rows += len(chunk.rows)
                advance(len(chunk.rows))
            memo.forget_oldest()
        if sharded:
            writer.complete()  # type: ignore[union-attr]
    return BatchResult(output, rows, invalid)


def _given(rows: pd.DataFrame) -> list[Triple]:
    return [Triple(s, v, o) for s, v, o in zip(rows["subject"], rows["verb"], rows["object"], strict=True)]


def score_triples(
    scorer: TripleScorer,
    triples: Sequence[Triple],
    lemmas: EventLemmas | None = None,
    annotators: Sequence[Annotator] = (),
) -> pd.DataFrame:
    """Scores of a few triples as a table (subject, verb, object, then `TripleColumns`' columns), input order."""
    words = pd.DataFrame(
        {
            "subject": [t.subject for t in triples],
            "verb": [t.verb for t in triples],
            "object": [t.object for t in triples],
        }
    )
    return pd.concat([words, TripleColumns(scorer, lemmas, annotators)(triples)], axis=1)

"""Scoring a table of triples of any size: streamed, order-preserving, all or nothing on disk."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from plausibility.errors import DataFormatError
from plausibility.progress import progress_bar
from plausibility.query.lemmas import QueryLemmas
from plausibility.query.triple_files import InvalidLine, TableWriter, read_triple_chunks
from plausibility.scorers.protocol import TripleScorer
from plausibility.triple import Triple

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


def score_table(
    scorer: TripleScorer,
    source: Path,
    output: Path,
    batch_size: int = 4096,
    skip_invalid: bool = False,
    annotators: Sequence[Annotator] = (),
    progress: bool = True,
    lemmas: QueryLemmas | None = None,
) -> BatchResult:
    """Score every triple of `source` into `output` (any table format), keeping order and extra columns.

    Output adds `score` (the scorer's own scale), `probability` (its `to_probability`) and one column per
    annotator entry. With `lemmas`, each triple is scored (and annotated) in its lemma form, and the lemma
    columns say which words were changed; without, as given. Invalid rows stop the run before anything is
    written, unless `skip_invalid`; an interrupted run leaves no output file.
    """
    if source.resolve() == output.resolve():
        raise DataFormatError(f"{output}: output would overwrite the input; choose another --output path")
    invalid = find_invalid_lines(source)
    if invalid and not skip_invalid:
        raise DataFormatError(_describe(source, invalid) + "; fix them or pass --skip-invalid")
    rows = 0
    with TableWriter(output) as writer, progress_bar("scoring", None, "triples", wanted=progress) as advance:
        for chunk in read_triple_chunks(source, batch_size):
            frame = chunk.rows
            columns = zip(frame["subject"], frame["verb"], frame["object"], strict=True)
            given = [Triple(s, v, o) for s, v, o in columns]
            triples = lemmas(given) if lemmas else given
            scores = scorer.score(triples) if triples else np.zeros(0)
            frame = frame.assign(score=scores, probability=scorer.to_probability(scores))
            if lemmas and triples:
                frame = frame.assign(**lemmas.columns(given, triples))
            for annotate in annotators:
                frame = frame.assign(**annotate(triples)) if triples else frame
            writer.write(frame)
            rows += len(frame)
            advance(len(frame))
    return BatchResult(output, rows, invalid)


def score_triples(
    scorer: TripleScorer,
    triples: Sequence[Triple],
    lemmas: QueryLemmas | None = None,
    annotators: Sequence[Annotator] = (),
) -> pd.DataFrame:
    """Scores of a few triples as a table (subject, verb, object, score, probability), input order.

    With `lemmas`, scored in their lemma form, with the lemma columns of `score_table`; each annotator adds
    its columns, computed on the triples as scored.
    """
    scored = lemmas(triples) if lemmas else list(triples)
    scores = scorer.score(scored)
    table = pd.DataFrame(
        {
            "subject": [t.subject for t in triples],
            "verb": [t.verb for t in triples],
            "object": [t.object for t in triples],
            "score": scores,
            "probability": scorer.to_probability(scores),
        }
    )
    if lemmas:
        table = table.assign(**lemmas.columns(triples, scored))
    for annotate in annotators:
        table = table.assign(**annotate(scored))
    return table

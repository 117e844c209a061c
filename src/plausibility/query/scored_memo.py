"""What each distinct triple of a run was given, so that a triple met again in a later chunk is not scored again."""

from collections.abc import Sequence
from itertools import islice

import pandas as pd

from plausibility.triple import Triple


class ScoredMemo:
    """The columns a run computed for each distinct triple (as given), the oldest forgotten past `capacity`.

    A table of millions of rows repeats its triples across chunks (a knowledge base's common relations, a
    corpus's frequent events): each is scored once per run, whatever chunk it comes back in. What is
    remembered depends only on the order of the rows, never on how many workers scored them, so a run's
    output does not either.
    """

    def __init__(self, capacity: int = 1_000_000) -> None:
        self.capacity = capacity
        self.columns: list[str] = []
        self._rows: dict[Triple, tuple[object, ...]] = {}  # () while claimed and not yet scored

    def __contains__(self, triple: Triple) -> bool:
        return triple in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def claim(self, triples: Sequence[Triple]) -> list[Triple]:
        """The distinct triples neither remembered nor claimed before, in first-seen order, now claimed: the
        unit of work that scores them is the only one to, and `remember` fills them in."""
        new = [triple for triple in dict.fromkeys(triples) if triple not in self._rows]
        self._rows.update(dict.fromkeys(new, ()))
        return new

    def remember(self, triples: Sequence[Triple], columns: pd.DataFrame) -> None:
        """Keep each triple's row of `columns` (aligned with `triples`)."""
        if not triples:
            return
        self.columns = list(columns.columns)
        self._rows.update(zip(triples, columns.itertuples(index=False, name=None), strict=True))

    def table(self, triples: Sequence[Triple]) -> pd.DataFrame:
        """The remembered columns of each triple, one row per triple (repeats included), input order."""
        return pd.DataFrame.from_records([self._rows[triple] for triple in triples], columns=self.columns)

    def forget_oldest(self) -> None:
        """Drop the oldest entries beyond `capacity` (call between chunks, once a chunk's rows are assembled)."""
        excess = len(self._rows) - self.capacity
        for triple in list(islice(self._rows, max(excess, 0))):
            del self._rows[triple]

"""The records a suite is made of: the texts a language model scores, grouped into items."""

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Text:
    """One string to score: `continuation` given `context` (joined with one space), or a whole text.

    `id` is the key of the text in a scores file (`--scores`, `--dump-scores`); `context` is "" for a
    whole text.
    """

    id: str
    context: str
    continuation: str

    @property
    def full(self) -> str:
        """The text as the model reads it."""
        return f"{self.context} {self.continuation}" if self.context else self.continuation


@dataclass(frozen=True)
class Item:
    """One unit of a suite (the unit the bootstrap resamples): its texts by role and its labels.

    `roles` maps a role name (e.g. `sg|pos_neg`) to its text; `labels` hold the item's attributes used to
    group results (e.g. `family`, `task`, `condition`).
    """

    key: str
    labels: Mapping[str, str]
    roles: Mapping[str, Text]

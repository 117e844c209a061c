"""The subject-verb-object event every stage of the project passes around."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Triple:
    """An event as lowercased lemmas: `subject verb object` (e.g. `person breathe air`)."""

    subject: str
    verb: str
    object: str

    def __str__(self) -> str:
        return f"{self.subject} {self.verb} {self.object}"

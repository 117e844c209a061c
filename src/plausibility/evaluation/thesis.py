"""The thesis's figures (Tables 6.4 and 6.5) per model, and which of our models each row stands for."""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class ThesisFigures:
    """One model's row in the thesis: test AUC (Table 6.4) and (CCΔ, LER) (Table 6.5), per dataset."""

    name: str
    auc: dict[str, float]
    consistency: dict[str, tuple[float, float]]


THESIS = {
    figures.name: figures
    for figures in (
        ThesisFigures("n-gram", {"pep3k": 0.51, "20q": 0.52}, {"pep3k": (0.06, 0.50), "20q": (0.07, 0.50)}),
        ThesisFigures("GloVe+MLP", {"pep3k": 0.55, "20q": 0.52}, {"pep3k": (0.03, 0.61), "20q": (0.03, 0.49)}),
        ThesisFigures("RoBERTa zero-shot", {"pep3k": 0.56, "20q": 0.57}, {"pep3k": (0.13, 0.70), "20q": (0.12, 0.65)}),
        ThesisFigures("RoBERTa", {"pep3k": 0.64, "20q": 0.67}, {"pep3k": (0.09, 0.52), "20q": (0.08, 0.51)}),
        ThesisFigures("ConceptInject", {"pep3k": 0.64, "20q": 0.66}, {"pep3k": (0.08, 0.52), "20q": (0.07, 0.51)}),
        ThesisFigures("ConceptMax", {"pep3k": 0.67, "20q": 0.74}, {"pep3k": (0.02, 0.00), "20q": (0.02, 0.00)}),
    )
}
# Our SPEC names and run-folder names, lowercased with punctuation dropped, for each thesis row. The thesis's
# zero-shot model is a masked RoBERTa; any `zero-shot` SPEC is its counterpart here ("in kind").
THESIS_ALIASES = {
    "ngram": "n-gram",
    "glovemlp": "GloVe+MLP",
    "zeroshot": "RoBERTa zero-shot",
    "roberta": "RoBERTa",
    "conceptinject": "ConceptInject",
    "conceptmax": "ConceptMax",
}


def thesis_figures(label: str) -> ThesisFigures | None:
    """The thesis row a model label stands for, by its name before any `:`; None if the thesis has none.

    `conceptmax:<SPEC>` wraps another scorer, which the thesis never did, so it has no thesis row.
    """
    name, colon, _ = label.partition(":")
    key = re.sub(r"[^a-z0-9]", "", name.lower())
    if colon and key == "conceptmax":
        return None
    return THESIS.get(THESIS_ALIASES.get(key, ""))

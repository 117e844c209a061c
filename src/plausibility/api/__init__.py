"""The Python API: the command line's verbs as functions, taking plain tuples as well as `Triple`s.

`load_scorer` scores and explains events; `score_file` scores tables; `evaluate`, `consistency` and `pairs` return
what `plausibility evaluate`, `consistency` and `pairs` write; `load_lm_scorer` scores sentences with a language
model.
"""

from importlib import import_module

from plausibility.api.scorer import Scorer, TripleLike, as_triples, load_scorer
from plausibility.api.workers import score_file, scoring_pool

# Loaded on first use: scoring one event should not wait for SciPy and the minimal-pair suites.
_LAZY = {
    "Evaluation": "plausibility.api.evaluation",
    "consistency": "plausibility.api.evaluation",
    "evaluate": "plausibility.api.evaluation",
    "PairsRun": "plausibility.api.minimal_pairs",
    "pairs": "plausibility.api.minimal_pairs",
    "load_lm_scorer": "plausibility.lm",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'plausibility.api' has no attribute {name!r}")


__all__ = ["Scorer", "TripleLike", "as_triples", "load_scorer", "score_file", "scoring_pool", *_LAZY]

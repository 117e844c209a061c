"""Scorers by name: a SPEC string parsed once, the registry that builds it, and the loader of trained models."""

from plausibility.scorers.registry import DEFAULT_SCORER, load_scorer
from plausibility.scorers.spec import ScorerSpec, parse_spec

__all__ = ["DEFAULT_SCORER", "ScorerSpec", "load_scorer", "parse_spec"]

"""Scorers by name: a SPEC string parsed once, the registry that builds it, and the loader of trained models."""

from plausibility.scorers.default import default_scorer
from plausibility.scorers.registry import load_scorer
from plausibility.scorers.spec import ScorerSpec, parse_spec

__all__ = ["ScorerSpec", "default_scorer", "load_scorer", "parse_spec"]

"""Minimal-pair suites: declarative suite files, comparison metrics, bootstrap intervals and reports."""

from plausibility.minimal_pairs.evaluate import ComparisonResult, SuiteResult
from plausibility.minimal_pairs.suite_config import SuiteConfig, available_suites, load_suite
from plausibility.minimal_pairs.suite_runner import load_items, run_suite

__all__ = [
    "ComparisonResult",
    "SuiteConfig",
    "SuiteResult",
    "available_suites",
    "load_items",
    "load_suite",
    "run_suite",
]

"""Minimal-pair suites: declarative suite files, comparison metrics, bootstrap intervals and reports.

The names below are loaded on first use (PEP 562), so a command that never scores pairs does not import
SciPy's statistics through this package.
"""

from importlib import import_module

_HOMES = {
    "ComparisonResult": "evaluate",
    "SuiteResult": "evaluate",
    "SuiteConfig": "suite_config",
    "available_suites": "suite_config",
    "load_suite": "suite_config",
    "load_items": "suite_runner",
    "run_suite": "suite_runner",
}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)

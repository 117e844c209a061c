"""The real WordNet hierarchy, loaded once per test session (built into the cache on first use)."""

import pytest

from plausibility.lexicon.hierarchy import Hierarchy


@pytest.fixture(scope="session")
def full_hierarchy() -> Hierarchy:
    """No filters: chains run from entity.n.01."""
    return Hierarchy.load(min_depth=1)


@pytest.fixture(scope="session")
def hierarchy(full_hierarchy: Hierarchy) -> Hierarchy:
    """The thesis's depth filter (depth < 4 dropped), no vocabulary."""
    return Hierarchy(full_hierarchy.table, min_depth=4)

"""Fixtures of the corpus tests: the hand-written sentence set as a corpus and one extraction run over it."""

from pathlib import Path

import pytest
from rule_set import rule_rows

from plausibility.corpus.pipeline import Extraction, extract_corpus


@pytest.fixture(scope="session")
def rule_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-written paragraphs as a plain-text corpus, one per line."""
    path = tmp_path_factory.mktemp("corpus") / "rules.txt"
    path.write_text("".join(f"{paragraph}\n" for paragraph, _, _ in rule_rows()))
    return path


@pytest.fixture(scope="session")
def uninterrupted(rule_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Extraction:
    """One complete local extraction of the rule corpus (no filtering), shared by the comparisons."""
    output = tmp_path_factory.mktemp("uninterrupted")
    return extract_corpus([rule_corpus], output, workers=1, shard_size=10, min_count=1, max_repeat=1000)

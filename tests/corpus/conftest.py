"""Fixtures of the corpus tests: the hand-written sentence set and one extraction run over it."""

from collections import Counter
from pathlib import Path

import pytest

from plausibility.corpus.pipeline import Extraction, extract_corpus
from plausibility.triple import Triple

RULE_SENTENCES = Path(__file__).parents[1] / "fixtures" / "corpus" / "rule_sentences.tsv"


def parse_expected(field: str) -> list[Triple]:
    return [Triple(*triple.split()) for triple in field.split(";") if triple]


def rule_rows() -> list[tuple[str, list[Triple], list[Triple]]]:
    """(paragraph, triples by the default rule, triples with passives and coordinated objects)."""
    rows = []
    for line in RULE_SENTENCES.read_text().splitlines():
        if line.startswith("#"):
            continue
        paragraph, default, extended = line.split("\t")
        rows.append((paragraph, parse_expected(default), parse_expected(extended)))
    return rows


def expected_counts() -> Counter[Triple]:
    return Counter(triple for _, default, _ in rule_rows() for triple in default)


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

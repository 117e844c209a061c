"""The hand-written sentence set of the extraction tests and the triples it must give."""

from collections import Counter
from pathlib import Path

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

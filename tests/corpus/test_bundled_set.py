"""The bundled training set in data/training/ is what the pipeline writes, and reproducible from its seed."""

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from plausibility.corpus.artefacts import read_triples
from plausibility.corpus.negatives import expand, sample_negatives
from plausibility.resources.paths import data_dir
from plausibility.triple import Triple


@pytest.fixture(scope="module")
def folder() -> Path:
    return data_dir() / "training"


@pytest.fixture(scope="module")
def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def test_triples_table_matches_its_manifest(folder: Path, manifest: dict) -> None:
    table = pq.read_table(folder / "triples.parquet")
    assert table.column_names == ["subject", "verb", "object", "count"]
    assert [str(table.schema.field(name).type) for name in table.column_names] == ["string"] * 3 + ["int64"]
    rows = list(zip(*(table.column(name).to_pylist() for name in ("subject", "verb", "object")), strict=True))
    assert rows == sorted(rows) and len(set(rows)) == len(rows)
    counts = table.column("count").to_pylist()
    final = manifest["counts"][-1]
    assert (final["step"], final["occurrences"], final["unique"]) == ("max_repeat", sum(counts), len(rows))
    assert max(counts) <= manifest["filters"]["max_repeat"]
    assert manifest["unique_events"] == len(rows)
    assert all(word == word.lower() for row in rows for word in row)


def test_pairs_are_the_expanded_triples_with_their_seeded_negatives(folder: Path, manifest: dict) -> None:
    events = expand(read_triples(folder / "triples.parquet"))
    pairs = pq.read_table(folder / "pairs.parquet")
    columns = {name: pairs.column(name).to_pylist() for name in pairs.column_names}
    assert [Triple(*row) for row in zip(columns["subject"], columns["verb"], columns["object"], strict=True)] == events
    negatives = sample_negatives(events, np.random.default_rng(manifest["negatives"]["seed"]))
    stored = zip(columns["negative_subject"], columns["negative_verb"], columns["negative_object"], strict=True)
    assert [Triple(*row) for row in stored] == negatives


def test_bundled_set_fits_the_size_budget(folder: Path) -> None:
    sizes = [(folder / name).stat().st_size for name in ("triples.parquet", "pairs.parquet", "manifest.json")]
    assert sum(sizes) <= 25 * 2**20

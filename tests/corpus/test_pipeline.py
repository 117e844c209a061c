import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from rule_set import expected_counts

from plausibility.corpus.artefacts import read_triples
from plausibility.corpus.parsers import ParserSpec
from plausibility.corpus.pipeline import Extraction, extract_corpus, write_training_pairs
from plausibility.corpus.shards import ShardResult, ShardStore
from plausibility.errors import DataFormatError, PlausibilityError, ResourceMissingError, UnknownNameError

pytestmark = pytest.mark.integration  # parses with the offline spaCy model in worker processes


def test_extraction_counts_the_hand_written_set_exactly(uninterrupted: Extraction) -> None:
    assert read_triples(uninterrupted.triples_path) == expected_counts()
    table = pq.read_table(uninterrupted.triples_path)
    assert table.column_names == ["subject", "verb", "object", "count"]
    assert str(table.schema.field("count").type) == "int64"
    rows = list(zip(*(table.column(name).to_pylist() for name in ("subject", "verb", "object")), strict=True))
    assert rows == sorted(rows)
    manifest = json.loads(uninterrupted.manifest_path.read_text())
    assert manifest["sentences_parsed"] == 39  # 38 paragraphs, one of them with two sentences
    assert manifest["parser"]["name"] == "spacy" and "ner" not in manifest["parser"]["components"]
    assert manifest["counts"][0] == {"step": "extracted", "occurrences": 26, "unique": 23}
    assert manifest["unique_events"] == 23
    assert manifest["sources"][0]["paragraphs"] == 38


def test_interrupted_run_resumes_to_the_same_output(
    rule_corpus: Path, uninterrupted: Extraction, tmp_path: Path
) -> None:
    def stop_after_first(result: ShardResult) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        extract_corpus([rule_corpus], tmp_path, shard_size=10, min_count=1, max_repeat=1000, on_shard=stop_after_first)
    assert len(list((tmp_path / "shards").glob("*-*.json"))) == 1
    assert not (tmp_path / "triples.parquet").exists()

    resumed = extract_corpus([rule_corpus], tmp_path, shard_size=10, min_count=1, max_repeat=1000)
    assert (resumed.shards_resumed, resumed.shards_parsed) == (1, 3)
    assert (tmp_path / "triples.parquet").read_bytes() == uninterrupted.triples_path.read_bytes()
    first, second = (json.loads(p.read_text()) for p in (uninterrupted.manifest_path, resumed.manifest_path))
    assert first == second


def test_a_reopened_store_lists_and_loads_every_shard(uninterrupted: Extraction, tmp_path: Path) -> None:
    store = ShardStore.reopen(uninterrupted.triples_path.parent / "shards")
    results = [store.load(key) for key in store.stored_keys()]
    assert [result.key for result in results] == store.stored_keys() and len(results) == 4
    assert sum(result.sentences for result in results) == 39
    merged: dict = {}
    for result in results:
        for triple, count in result.counts.items():
            merged[triple] = merged.get(triple, 0) + count
    assert merged == expected_counts()
    with pytest.raises(DataFormatError) as raised:
        ShardStore.reopen(tmp_path)
    assert str(raised.value) == f"{tmp_path}: no settings.json, so no parsed shards; give the folder a run parsed into"


def test_resume_with_other_settings_is_refused(rule_corpus: Path, uninterrupted: Extraction) -> None:
    with pytest.raises(DataFormatError, match=r"holds shards parsed with other settings .*use another --output"):
        extract_corpus([rule_corpus], uninterrupted.triples_path.parent, shard_size=7)


def test_filters_apply_to_the_merged_counts(rule_corpus: Path, uninterrupted: Extraction, tmp_path: Path) -> None:
    # child eat apple occurs 3 times (ate / have eaten / did eat); cap it at 2, keep words seen twice.
    (tmp_path / "shards").mkdir()
    for shard in (uninterrupted.triples_path.parent / "shards").iterdir():
        (tmp_path / "shards" / shard.name).write_bytes(shard.read_bytes())
    filtered = extract_corpus([rule_corpus], tmp_path, shard_size=10, min_count=2, max_repeat=2)
    assert filtered.shards_parsed == 0
    counts = read_triples(filtered.triples_path)
    expected = {t: min(n, 2) for t, n in expected_counts().items()}
    subjects, verbs, objects = ({} for _ in range(3))
    for t, n in expected_counts().items():
        subjects[t.subject] = subjects.get(t.subject, 0) + n
        verbs[t.verb] = verbs.get(t.verb, 0) + n
        objects[t.object] = objects.get(t.object, 0) + n
    expected = {t: n for t, n in expected.items() if min(subjects[t.subject], verbs[t.verb], objects[t.object]) >= 2}
    assert counts == expected
    assert [step.step for step in filtered.steps] == ["extracted", "min_count", "max_repeat"]


def test_training_pairs_expand_counts_and_record_the_seed(uninterrupted: Extraction, tmp_path: Path) -> None:
    folder = uninterrupted.triples_path.parent
    pairs = pq.read_table(write_training_pairs(folder, seed=5))
    assert pairs.column_names == [
        "subject",
        "verb",
        "object",
        "negative_subject",
        "negative_verb",
        "negative_object",
    ]
    assert pairs.num_rows == sum(expected_counts().values())
    assert pairs.column("negative_verb").to_pylist() == pairs.column("verb").to_pylist()
    assert json.loads((folder / "manifest.json").read_text())["negatives"]["seed"] == 5
    again = pq.read_table(write_training_pairs(folder, seed=5))
    assert again.equals(pairs)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda d: d / "missing.txt", ResourceMissingError, r"missing\.txt: no such file"),
        (lambda d: d, ResourceMissingError, r": no such file"),
        (lambda d: _write(d / "blob.txt", b"\x7fELF\x02\x01\x01\x00\x00\x00"), DataFormatError, r"blob\.txt: binary"),
        (lambda d: _write(d / "empty.txt", b"\n  \n"), DataFormatError, r"empty\.txt: the corpus is empty"),
    ],
    ids=["missing", "folder", "binary", "empty"],
)
def test_bad_input_fails_before_anything_is_written(tmp_path: Path, make, error, message) -> None:
    source = make(tmp_path)
    output = tmp_path / "out"
    with pytest.raises(error, match=message):
        extract_corpus([source], output)
    assert not output.exists()


def test_unknown_parser_engine_and_bad_numbers(rule_corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(UnknownNameError, match="unknown parser 'udpipe'; known: spacy, stanza"):
        extract_corpus([rule_corpus], tmp_path / "a", parser=ParserSpec("udpipe"))
    with pytest.raises(UnknownNameError, match="unknown engine 'spark'; known: local, ray"):
        extract_corpus([rule_corpus], tmp_path / "b", engine="spark")
    with pytest.raises(PlausibilityError, match="workers must be at least 1, got 0"):
        extract_corpus([rule_corpus], tmp_path / "c", workers=0)
    assert list(tmp_path.iterdir()) == []


def test_same_file_twice_is_refused(rule_corpus: Path, tmp_path: Path) -> None:
    with pytest.raises(DataFormatError, match="has the same content as"):
        extract_corpus([rule_corpus, rule_corpus], tmp_path / "out")


def _write(path: Path, content: bytes) -> Path:
    path.write_bytes(content)
    return path

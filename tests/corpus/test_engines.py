import json
from pathlib import Path

import pytest

from plausibility.corpus.pipeline import Extraction, extract_corpus


@pytest.mark.integration
@pytest.mark.slow
def test_ray_engine_in_local_mode_matches_the_local_engine(
    rule_corpus: Path, uninterrupted: Extraction, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ray = pytest.importorskip("ray")
    # Ray starts its workers at nice 15; on a busy test machine they would barely run.
    monkeypatch.setenv("RAY_worker_niceness", "0")
    try:
        extraction = extract_corpus(
            [rule_corpus], tmp_path, engine="ray", workers=1, shard_size=10, min_count=1, max_repeat=1000
        )
    finally:
        ray.shutdown()
    assert extraction.shards_parsed == 4
    assert extraction.triples_path.read_bytes() == uninterrupted.triples_path.read_bytes()
    ours, theirs = (json.loads(p.read_text()) for p in (extraction.manifest_path, uninterrupted.manifest_path))
    assert ours["engine"]["name"] == "ray"
    assert {k: v for k, v in ours.items() if k != "engine"} == {k: v for k, v in theirs.items() if k != "engine"}

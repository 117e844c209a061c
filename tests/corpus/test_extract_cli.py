from pathlib import Path

import pyarrow.parquet as pq
import pytest
from rule_set import expected_counts

from plausibility.cli import main
from plausibility.corpus.artefacts import read_triples


@pytest.mark.integration
def test_extract_then_negatives(rule_corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "run"
    assert main(["extract", str(rule_corpus), "--output", str(output), "--min-count", "1", "--shard-size", "20"]) == 0
    assert read_triples(output / "triples.parquet") == expected_counts()
    assert "39 sentences parsed" in capsys.readouterr().out
    assert main(["negatives", str(output), "--seed", "3"]) == 0
    assert pq.read_table(output / "pairs.parquet").num_rows == 26


def test_bad_input_is_one_line_and_exit_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"\x00\x01\x02")
    assert main(["extract", str(blob), "--output", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert error.startswith("plausibility extract: error: ") and error.count("\n") == 1
    assert "binary content (NUL bytes), not text" in error
    assert not (tmp_path / "out").exists()


def test_negatives_without_triples_names_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["negatives", str(tmp_path)]) == 1
    assert "run `plausibility extract` to write it" in capsys.readouterr().err

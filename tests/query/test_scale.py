"""Scoring large tables: each distinct triple once per run, on worker processes or Ray, into resumable parts."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from plausibility.api import load_scorer, score_file
from plausibility.cli import main
from plausibility.errors import OutputPathError
from plausibility.query.batch import TripleColumns, score_table, score_triples
from plausibility.query.part_folder import MANIFEST, read_part_folder
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple

ROWS = [
    ("person", "eat", "apple"), ("dog", "eat", "bone"), ("person", "eat", "apple"), ("zebra", "fly", "kite"),
    ("dog", "chase", "cat"), ("person", "eat", "apple"), ("dog", "eat", "bone"), ("cat", "drink", "milk"),
    ("bird", "eat", "seed"),
]  # fmt: skip


@pytest.fixture
def ngram_spec(fixtures: Path) -> str:
    return f"ngram:{fixtures / 'ngram_triples.tsv'}"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "in.tsv"
    lines = [f"{i}\t{s}\t{v}\t{o}" for i, (s, v, o) in enumerate(ROWS)]
    path.write_text("id\tsubject\tverb\tobject\n" + "\n".join(lines) + "\n")
    return path


class CountingScorer:
    """The real n-gram scorer, counting the triples it is asked to score."""

    def __init__(self, spec: str, fail_on_call: int | None = None) -> None:
        self.scorer = build_scorer(spec)
        self.probability_mapping, self.lexicon = self.scorer.probability_mapping, self.scorer.lexicon
        self.scored: list[Triple] = []
        self.calls = 0
        self.fail_on_call = fail_on_call

    def score(self, triples: list[Triple]) -> np.ndarray:
        self.calls += 1
        if self.calls == self.fail_on_call:
            raise KeyboardInterrupt  # as a ^C or a SIGTERM stops a run
        self.scored += triples
        return self.scorer.score(triples)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return self.scorer.to_probability(scores)


def test_a_triple_repeated_in_later_chunks_is_scored_once(tmp_path: Path, source: Path, ngram_spec: str) -> None:
    counting = CountingScorer(ngram_spec)
    score_table(TripleColumns(counting), source, tmp_path / "out.parquet", chunk_size=2, progress=False)
    assert sorted(counting.scored, key=str) == sorted({Triple(*row) for row in ROWS}, key=str)  # 6 of 9 rows
    scored = pd.read_parquet(tmp_path / "out.parquet")
    assert scored["id"].tolist() == [str(i) for i in range(len(ROWS))]
    expected = score_triples(counting.scorer, [Triple(*row) for row in ROWS])
    assert scored["score"].tolist() == expected["score"].tolist()


def test_a_folder_of_parts_resumes_to_the_uninterrupted_table(tmp_path: Path, source: Path, ngram_spec: str) -> None:
    whole = tmp_path / "whole"
    score_table(
        TripleColumns(CountingScorer(ngram_spec)), source, whole, chunk_size=2, progress=False, identity={"model": "n"}
    )
    assert sorted(path.name for path in whole.iterdir()) == [MANIFEST, *(f"part-{i:05d}.parquet" for i in range(5))]

    resumed = tmp_path / "resumed"
    # Chunks of 2 rows score in waves of 4 chunks, one call each: the fifth call is the second wave's.
    stopping = CountingScorer(ngram_spec, fail_on_call=5)
    with pytest.raises(KeyboardInterrupt):
        score_table(TripleColumns(stopping), source, resumed, chunk_size=2, progress=False, identity={"model": "n"})
    manifest = json.loads((resumed / MANIFEST).read_text())
    assert (manifest["finished"], manifest["complete"]) == (4, False)
    finishing = CountingScorer(ngram_spec)
    result = score_table(
        TripleColumns(finishing), source, resumed, chunk_size=2, progress=False, identity={"model": "n"}
    )
    # The finished parts are read back, not scored again: only the last chunk's new triple is scored.
    assert finishing.scored == [Triple("bird", "eat", "seed")] and result.rows == len(ROWS)
    pd.testing.assert_frame_equal(read_part_folder(resumed), read_part_folder(whole))


def test_a_folder_of_another_run_is_refused(tmp_path: Path, source: Path, ngram_spec: str) -> None:
    folder = tmp_path / "parts"
    score_table(
        TripleColumns(CountingScorer(ngram_spec)), source, folder, chunk_size=4, progress=False, identity={"model": "a"}
    )
    with pytest.raises(OutputPathError, match="holds parts of another run"):
        score_table(
            TripleColumns(CountingScorer(ngram_spec)),
            source,
            folder,
            chunk_size=4,
            progress=False,
            identity={"model": "b"},
        )


def test_the_api_with_one_worker_scores_in_this_process(
    tmp_path: Path, source: Path, ngram_spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = load_scorer(ngram_spec).score_file(source, tmp_path / "here.parquet", chunk_size=2).output

    def no_process(*args: object) -> None:
        raise AssertionError("one worker started a process")

    monkeypatch.setattr("plausibility.workers.WorkerPool", no_process)
    one = score_file(source, tmp_path / "one.parquet", ngram_spec, workers=1, chunk_size=2).output
    pd.testing.assert_frame_equal(pd.read_parquet(one), pd.read_parquet(here))


@pytest.mark.numeric
@pytest.mark.slow
def test_two_workers_write_the_table_one_process_writes(tmp_path: Path, source: Path, ngram_spec: str) -> None:
    common = ["score", "--input", str(source), "--model", ngram_spec, "--chunk-size", "2"]
    assert main([*common, "--output", str(tmp_path / "one.parquet")]) == 0
    assert main([*common, "--output", str(tmp_path / "two.parquet"), "--workers", "2"]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "two.parquet"), pd.read_parquet(tmp_path / "one.parquet"))


@pytest.mark.slow
def test_ray_writes_the_table_one_process_writes(tmp_path: Path, source: Path, ngram_spec: str) -> None:
    # Both engines read a table with one reader (plausibility.tables) whatever its format, so one TSV written as a
    # spreadsheet on Windows writes one (a byte-order mark, CRLF, quotes that TSV keeps) checks both.
    pytest.importorskip("ray")
    tables = tmp_path / "tables"
    tables.mkdir()
    frame = pd.read_csv(source, sep="\t").assign(note=[f'said "{i}"' for i in range(len(ROWS))])
    whole = tmp_path / "all.tsv"
    for path, part in ((tables / "a.tsv", frame.iloc[:4]), (tables / "b.tsv", frame.iloc[4:]), (whole, frame)):
        lines = ["\t".join(map(str, row)) for row in [list(part.columns), *part.values.tolist()]]
        path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\r\n")
    common = ["score", "--model", ngram_spec, "--chunk-size", "2"]
    assert main([*common, "--input", str(whole), "--output", str(tmp_path / "one.parquet")]) == 0
    assert main([*common, "--input", str(tables / "*.tsv"), "--output", str(tmp_path / "ray"), "--engine", "ray",
                 "--workers", "2"]) == 0  # fmt: skip
    one = pd.read_parquet(tmp_path / "one.parquet")
    assert one["note"].tolist()[:2] == ['said "0"', 'said "1"']
    pd.testing.assert_frame_equal(read_part_folder(tmp_path / "ray"), one, check_dtype=False)  # Arrow strings

"""Scoring tables end to end with the real n-gram scorer over a small counted-triples fixture."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from plausibility.cli import main
from plausibility.errors import DataFormatError
from plausibility.query.batch import score_table, score_triples
from plausibility.query.tables import InvalidLine
from plausibility.scorers import load_scorer
from plausibility.triple import Triple


@pytest.fixture
def ngram_spec(fixtures: Path) -> str:
    return f"ngram:{fixtures / 'ngram_triples.tsv'}"


def _table(tmp_path: Path, text: str, name: str = "in.tsv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_batch_scores_equal_single_scores_and_keep_order_and_columns(tmp_path: Path, ngram_spec: str) -> None:
    scorer = load_scorer(ngram_spec)
    source = _table(
        tmp_path, "id\tsubject\tverb\tobject\nb\tperson\teat\tapple\na\tdog\teat\tbone\nc\tzebra\tfly\tkite\n"
    )
    result = score_table(scorer, source, tmp_path / "out.parquet", batch_size=2, progress=False)
    scored = pd.read_parquet(result.output)
    assert scored["id"].tolist() == ["b", "a", "c"]
    assert list(scored.columns) == ["subject", "verb", "object", "id", "score", "probability"]
    singles = [
        score_triples(scorer, [Triple(s, v, o)])["score"][0] for s, v, o in scored[["subject", "verb", "object"]].values
    ]
    np.testing.assert_allclose(scored["score"], singles)
    np.testing.assert_allclose(scored["probability"], scorer.to_probability(np.asarray(singles)))


def test_invalid_lines_stop_the_run_with_nothing_written(tmp_path: Path, ngram_spec: str) -> None:
    source = _table(tmp_path, "person\teat\tapple\nbroken line\n\ndog\teat\tbone\n")
    output = tmp_path / "out.tsv"
    with pytest.raises(
        DataFormatError, match=r"2 lines are not triples: line 2: expected 3 columns, got 1; line 3: empty"
    ):
        score_table(load_scorer(ngram_spec), source, output, progress=False)
    assert not output.exists()


def test_skip_invalid_scores_the_rest_and_reports_line_numbers(tmp_path: Path, ngram_spec: str) -> None:
    source = _table(tmp_path, "person\teat\tapple\nbroken line\ndog\teat\tbone\n")
    result = score_table(load_scorer(ngram_spec), source, tmp_path / "out.csv", skip_invalid=True, progress=False)
    assert result.rows == 2
    assert result.skipped == [InvalidLine(2, "expected 3 columns, got 1")]
    assert pd.read_csv(result.output)["subject"].tolist() == ["person", "dog"]


def test_interrupted_run_leaves_no_output(tmp_path: Path, ngram_spec: str) -> None:
    class Interrupting:
        """The real n-gram scorer, interrupted after its first chunk as a Ctrl-C would."""

        def __init__(self) -> None:
            self.inner = load_scorer(ngram_spec)
            self.probability_mapping = self.inner.probability_mapping
            self.calls = 0

        def score(self, triples: list[Triple]) -> np.ndarray:
            self.calls += 1
            if self.calls == 2:
                raise KeyboardInterrupt
            return self.inner.score(triples)

        def to_probability(self, scores: np.ndarray) -> np.ndarray:
            return self.inner.to_probability(scores)

    source = _table(tmp_path, "".join(f"person\teat\tapple{i}\n" for i in range(10)))
    with pytest.raises(KeyboardInterrupt):
        score_table(Interrupting(), source, tmp_path / "out.jsonl", batch_size=3, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv"]


def test_cli_scores_one_triple_and_a_file(tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "Person", "eat", "apple", "--model", ngram_spec]) == 0
    assert "person" in capsys.readouterr().out
    source = _table(tmp_path, "person\teat\tapple\n")
    assert main(["score", "--input", str(source), "--output", str(tmp_path / "o.tsv"), "--model", ngram_spec]) == 0
    assert pd.read_csv(tmp_path / "o.tsv", sep="\t")["object"].tolist() == ["apple"]


def test_cli_bad_input_is_one_line_and_exit_1(
    tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "person", "eat", "--model", ngram_spec]) == 1
    assert (
        capsys.readouterr().err
        == "plausibility score: error: give three words S V O (got 2), or --input FILE --output FILE\n"
    )
    assert main(["score", "a", "b", "c", "--model", "no-such-model"]) == 1
    assert "unknown model 'no-such-model'; known: " in capsys.readouterr().err

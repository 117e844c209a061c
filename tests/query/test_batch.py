"""Scoring tables end to end with the real n-gram scorer over a small counted-triples fixture."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import plausibility
from plausibility.cli import main
from plausibility.errors import DataFormatError, PlausibilityError
from plausibility.query.batch import TripleColumns, score_table, score_triples
from plausibility.query.triple_files import InvalidLine
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple

ALLOWS_OTHERS = "; a header row naming subject, verb and object allows others"


@pytest.fixture
def ngram_spec(fixtures: Path) -> str:
    return f"ngram:{fixtures / 'ngram_triples.tsv'}"


def _table(tmp_path: Path, text: str, name: str = "in.tsv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_batch_scores_equal_single_scores_and_keep_order_and_columns(tmp_path: Path, ngram_spec: str) -> None:
    scorer = build_scorer(ngram_spec)
    source = _table(
        tmp_path, "id\tsubject\tverb\tobject\nb\tperson\teat\tapple\na\tdog\teat\tbone\nc\tzebra\tfly\tkite\n"
    )
    result = score_table(TripleColumns(scorer), source, tmp_path / "out.parquet", chunk_size=2, progress=False)
    scored = pd.read_parquet(result.output)
    assert scored["id"].tolist() == ["b", "a", "c"]
    assert list(scored.columns) == ["subject", "verb", "object", "id", "score", "probability"]
    singles = [
        score_triples(scorer, [Triple(s, v, o)])["score"][0] for s, v, o in scored[["subject", "verb", "object"]].values
    ]
    # Both exact: the n-gram's float64 formula is elementwise, so batches change nothing; Parquet keeps float64.
    np.testing.assert_allclose(scored["score"], singles)
    np.testing.assert_allclose(scored["probability"], scorer.to_probability(np.asarray(singles)))


def test_invalid_lines_stop_the_run_with_nothing_written(tmp_path: Path, ngram_spec: str) -> None:
    source = _table(tmp_path, "person\teat\tapple\nbroken line\n\ndog\teat\tbone\n")
    output = tmp_path / "out.tsv"
    with pytest.raises(DataFormatError, match=r"2 lines are not triples: line 2: has 1 columns, not 3 \(subject verb"):
        score_table(TripleColumns(build_scorer(ngram_spec)), source, output, progress=False)
    assert not output.exists()


def test_skip_invalid_scores_the_rest_and_reports_line_numbers(tmp_path: Path, ngram_spec: str) -> None:
    source = _table(tmp_path, "person\teat\tapple\nbroken line\ndog\teat\tbone\n")
    result = score_table(
        TripleColumns(build_scorer(ngram_spec)), source, tmp_path / "out.csv", skip_invalid=True, progress=False
    )
    assert result.rows == 2
    assert result.skipped == [InvalidLine(2, "has 1 columns, not 3 (subject verb object)" + ALLOWS_OTHERS)]
    assert pd.read_csv(result.output)["subject"].tolist() == ["person", "dog"]


@pytest.mark.parametrize("suffix", [".tsv", ".csv", ".parquet", ".jsonl"])
def test_a_first_chunk_of_skipped_rows_leaves_every_column_to_the_scored_ones(
    tmp_path: Path, ngram_spec: str, suffix: str
) -> None:
    from plausibility.lexicon.event_lemmas import EventLemmas
    from plausibility.query.coverage import coverage_flags

    source = _table(tmp_path, "ice cream\teat\tapple\npersons\teat\tbread\n")
    scorer = build_scorer(ngram_spec)
    flags = coverage_flags(scorer)
    output = tmp_path / f"out{suffix}"
    score_table(TripleColumns(scorer, EventLemmas(flags.hierarchy), [flags]), source, output, 1, True, progress=False)
    readers = {".tsv": lambda p: pd.read_csv(p, sep="\t"), ".csv": pd.read_csv, ".parquet": pd.read_parquet}
    scored = readers.get(suffix, lambda p: pd.read_json(p, lines=True))(output)
    assert list(scored.columns) == [
        "subject", "verb", "object", "score", "probability", "subject_lemma", "verb_lemma", "object_lemma",
        "lemmatised", "flags",
    ]  # fmt: skip
    assert scored["subject_lemma"].tolist() == ["person"]


def test_interrupted_run_leaves_no_output(tmp_path: Path, ngram_spec: str) -> None:
    class Interrupting:
        """The real n-gram scorer, interrupted after its first chunk as a Ctrl-C would."""

        def __init__(self) -> None:
            self.inner = build_scorer(ngram_spec)
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
        score_table(TripleColumns(Interrupting()), source, tmp_path / "out.jsonl", chunk_size=3, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv"]


def test_cli_scores_one_triple_and_a_file(tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "Person", "eat", "apple", "--model", ngram_spec]) == 0
    printed = capsys.readouterr().out
    # the model and its probability map each open a line of their own, above the table of fields
    assert printed.startswith(f"model: {ngram_spec}\nprobability: ") and "│ subject       │ person" in printed
    source = _table(tmp_path, "person\teat\tapple\n")
    assert main(["score", "--input", str(source), "--output", str(tmp_path / "o.tsv"), "--model", ngram_spec]) == 0
    assert pd.read_csv(tmp_path / "o.tsv", sep="\t")["object"].tolist() == ["apple"]


def test_cli_bad_input_is_one_line_and_exit_1_and_a_wrong_command_line_exit_2(
    tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "person", "eat", "--model", ngram_spec]) == 2  # two words: the command line is wrong
    assert (
        capsys.readouterr().err
        == "plausibility score: error: give three words S V O (got 2), or --input FILE --output FILE\n"
    )
    assert main(["score", "a", "b", "c", "--model", "no-such-model"]) == 1
    assert "unknown model 'no-such-model'; known: " in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "skip", "message"),
    [
        ("", False, "the file is empty; give a table with one subject, verb, object triple per line"),
        ("subject\tverb\tobject\n", False, "only a header and no triples; add one subject, verb, object per line"),
        (
            "a\tb\n\n",
            True,
            "none of its lines is a triple (line 1: has 2 columns, not 3 (subject verb object)"
            + ALLOWS_OTHERS
            + "; line 2: empty line)",
        ),
    ],
)
def test_an_input_without_triples_is_an_error_and_writes_nothing(
    tmp_path: Path, ngram_spec: str, text: str, skip: bool, message: str
) -> None:
    source = _table(tmp_path, text)
    with pytest.raises(DataFormatError) as error:
        score_table(
            TripleColumns(build_scorer(ngram_spec)), source, tmp_path / "out.tsv", skip_invalid=skip, progress=False
        )
    assert str(error.value) == f"{source}: {message}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv"]


def test_cli_scores_a_bom_headed_table_and_a_quote_as_a_character(
    tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "b.tsv"
    source.write_bytes(b'\xef\xbb\xbfsubject\tverb\tobject\n"person\tbreathe\tair\nchild\teat\tapple\n')
    output = tmp_path / "o.tsv"
    assert main(["score", "--model", ngram_spec, "--input", str(source), "--output", str(output)]) == 0
    assert " ".join(capsys.readouterr().out.split()) == f"scored 2 triples into {output} (0 lines skipped)"
    assert [line.split("\t")[0] for line in output.read_text().splitlines()] == ["subject", '"person', "child"]


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["", "eat", "apple"], "subject is missing or empty"),
        (["ice cream", "eat", "apple"], "subject 'ice cream' is not a single word"),
        (["person", "eat", " "], "object is missing or empty"),
    ],
)
def test_cli_words_follow_the_same_rule_as_file_fields(
    tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str], words: list[str], message: str
) -> None:
    assert main(["score", *words, "--model", ngram_spec]) == 1
    assert capsys.readouterr().err == (
        f"plausibility score: error: {message}; give one word (a lemma) for each of S V O\n"
    )
    source = _table(tmp_path, "\t".join(words) + "\n")
    with pytest.raises(DataFormatError, match=f"line 1: {message}"):
        score_table(TripleColumns(build_scorer(ngram_spec)), source, tmp_path / "out.tsv", progress=False)


def test_cli_output_that_is_a_folder_is_one_line(
    tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _table(tmp_path, "person\teat\tapple\n")
    (tmp_path / "out.tsv").mkdir()
    assert main(["score", "--input", str(source), "--output", str(tmp_path / "out.tsv"), "--model", ngram_spec]) == 1
    assert capsys.readouterr().err == (
        f"plausibility score: error: {tmp_path / 'out.tsv'}: is a folder; give the path of a file to write\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.tsv", "out.tsv"]


def test_cli_json_prints_one_object_with_the_tables_values(ngram_spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["score", "person", "eat", "apple", "--model", ngram_spec, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    scorer = build_scorer(ngram_spec)
    expected = score_triples(scorer, [Triple("person", "eat", "apple")]).iloc[0]
    assert list(record)[:5] == ["subject", "verb", "object", "score", "probability"]
    assert (record["score"], record["probability"]) == (float(expected["score"]), float(expected["probability"]))
    assert (record["model"], record["probability_mapping"]) == (ngram_spec, scorer.probability_mapping)


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


@pytest.mark.parametrize("fmt", ["tsv", "csv", "jsonl"])
def test_cli_stdin_to_stdout_writes_what_a_file_run_writes(
    fmt: str, tmp_path: Path, ngram_spec: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "subject\tverb\tobject\tid\nperson\teat\tapple\tb\nchild\tread\tbook\ta\n"
    source = _table(tmp_path, text)
    expected = tmp_path / f"expected.{fmt}"
    assert main(["score", "--input", str(source), "--output", str(expected), "--model", ngram_spec]) == 0
    capsys.readouterr()
    _stdin(monkeypatch, text)
    assert main(["-q", "score", "--input", "-", "--output", "-", "--format", fmt, "--model", ngram_spec]) == 0
    captured = capsys.readouterr()
    assert captured.out == expected.read_text() and captured.err == ""


def test_cli_stdout_round_trips_back_through_stdin(
    ngram_spec: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    _stdin(monkeypatch, "person\teat\tapple\nstone\tread\tmilk\n")
    assert main(["-q", "score", "--input", "-", "--output", "-", "--format", "json", "--model", ngram_spec]) == 0
    first = capsys.readouterr().out
    _stdin(monkeypatch, first)
    arguments = ["--input", "-", "--output", "-", "--format", "jsonl", "--model", ngram_spec]
    assert main(["-q", "score", *arguments]) == 0
    again = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert again == [json.loads(line) for line in first.splitlines()]  # the same rows, rescored alike


def test_cli_stdin_errors_name_stdin_and_print_no_rows(
    ngram_spec: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _stdin(monkeypatch, "person\teat\n")
    assert main(["score", "--input", "-", "--output", "-", "--model", ngram_spec]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        "plausibility score: error: stdin: none of its lines is a triple "
        "(line 1: has 2 columns, not 3 (subject verb object)" + ALLOWS_OTHERS + ")\n"
    )


def test_cli_format_is_only_for_streams(tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    source = _table(tmp_path, "person\teat\tapple\n")
    argv = ["score", "--input", str(source), "--output", str(tmp_path / "o.tsv"), "--format", "csv"]
    assert main([*argv, "--model", ngram_spec]) == 2
    assert capsys.readouterr().err == (
        "plausibility score: error: --format csv is for --output -; a file's suffix names its format\n"
    )


def test_a_control_or_invisible_character_in_a_word_is_refused_at_every_door(
    tmp_path: Path, ngram_spec: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # a file: the line is invalid, named by its number, and the run stops unless told to skip it
    source = _table(tmp_path, "per\x00son\tbreathe\tair\ndog\tchase\tcat\nbird\teat\u200dx\tseed\n")
    nul = "subject 'per\\x00son' holds the character U+0000 (a control character), which no word holds"
    joiner = "verb 'eat\\u200dx' holds the character U+200D (ZERO WIDTH JOINER), which no word holds"
    with pytest.raises(DataFormatError) as error:
        score_table(TripleColumns(build_scorer(ngram_spec)), source, tmp_path / "out.tsv", progress=False)
    assert str(error.value) == (
        f"{source}: 2 lines are not triples: line 1: {nul}; line 3: {joiner}; fix them or pass --skip-invalid"
    )
    result = score_table(
        TripleColumns(build_scorer(ngram_spec)), source, tmp_path / "out.tsv", skip_invalid=True, progress=False
    )
    assert [line.line for line in result.skipped] == [1, 3]
    assert pd.read_csv(tmp_path / "out.tsv", sep="\t")["subject"].tolist() == ["dog"]  # no NUL written back
    # the command line: one line, exit 1, before any model loads
    capsys.readouterr()  # what scoring the file logged (a first calibration, say)
    assert main(["score", "per\x07son", "breathe", "air", "--model", ngram_spec]) == 1
    error_line = capsys.readouterr().err
    assert error_line.count("\n") == 1 and "holds the character U+0007 (a control character)" in error_line
    # the Python API
    scorer = plausibility.load_scorer(ngram_spec)
    with pytest.raises(PlausibilityError, match=r"item 0 .*: object 'a\\x1bir' holds the character U\+001B"):
        scorer.score([("person", "breathe", "a\x1bir")])

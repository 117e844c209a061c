from pathlib import Path

import pytest

from plausibility.errors import DataFormatError
from plausibility.minimal_pairs.score_table import read_scores, write_scores


def test_scores_round_trip_at_full_precision(tmp_path: Path):
    scores = {"1_dog_affirmative_negation_sref": -12.345678901234567, "b,with comma": -0.1}
    write_scores(scores, tmp_path / "scores.csv")
    assert read_scores(tmp_path / "scores.csv") == scores
    assert not [path for path in tmp_path.iterdir() if path.name.startswith(".")]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", r"the scores file is empty"),
        ("id,logprob\n", r"has a header but no rows"),
        ("id,score\na,1\n", r"missing column\(s\) logprob; the header must be `id,logprob`"),
        ("id,logprob\na,-1\na,-2\n", r"line 3: id 'a' occurs twice"),
        ("id,logprob\na,minus one\n", r"line 2: logprob 'minus one' is not a number"),
        ("id,logprob\na,nan\n", r"line 2: logprob is NaN"),
    ],
)
def test_bad_scores_files_fail_with_the_line(tmp_path: Path, content: str, message: str):
    path = tmp_path / "scores.csv"
    path.write_text(content)
    with pytest.raises(DataFormatError, match=message):
        read_scores(path)


def test_missing_scores_file(tmp_path: Path):
    with pytest.raises(DataFormatError, match=r"absent.csv: no such scores file"):
        read_scores(tmp_path / "absent.csv")


def test_a_scores_file_that_is_not_utf8_is_one_line(tmp_path: Path):
    path = tmp_path / "scores.csv"
    path.write_bytes(b"id,logprob\n\xe9t\xe9,-1\n")
    with pytest.raises(DataFormatError) as error:
        read_scores(path)
    assert str(error.value) == f"{path}: not UTF-8 text (byte 11); save the scores file as UTF-8"


def test_a_scores_file_may_start_with_a_byte_order_mark(tmp_path: Path):
    path = tmp_path / "scores.csv"
    path.write_bytes(b"\xef\xbb\xbfid,logprob\na,-1.5\n")
    assert read_scores(path) == {"a": -1.5}

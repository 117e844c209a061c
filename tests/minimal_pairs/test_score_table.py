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

"""The pairs file has one writer and one reader: every consumer refuses a bad file with the reader's words."""

from pathlib import Path

import pandas as pd
import pytest

from plausibility.baselines.glove_mlp import pair_vocabulary
from plausibility.corpus.artefacts import PAIR_COLUMNS, read_pair_nouns, read_pairs, write_pairs
from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.models.datamodule import PairsDataModule
from plausibility.scorers.calibration import calibration_slice
from plausibility.triple import Triple


def test_pairs_read_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "pairs.parquet"
    events = [Triple("dog", "eat", "bone"), Triple("person", "breathe", "air")]
    negatives = [Triple("dog", "eat", "stone"), Triple("helium", "breathe", "air")]
    write_pairs(path, events, negatives)
    table = read_pairs(path)
    assert tuple(table.column_names) == PAIR_COLUMNS
    second = ("person", "breathe", "air", "helium", "breathe", "air")
    assert table.to_pylist()[1] == dict(zip(PAIR_COLUMNS, second, strict=True))
    assert read_pair_nouns(path) == ["air", "bone", "dog", "helium", "person", "stone"]


def test_every_reader_refuses_a_bad_pairs_file_in_the_same_words(tmp_path: Path) -> None:
    short = tmp_path / "short.parquet"
    pd.DataFrame({"subject": ["dog"], "verb": ["eat"], "object": ["bone"]}).to_parquet(short)
    text = tmp_path / "text.parquet"
    text.write_text("not parquet")
    missing = f"{short}: missing columns negative_subject, negative_verb, negative_object; expected " + ", ".join(
        PAIR_COLUMNS
    )
    readers = [
        read_pairs,
        read_pair_nouns,
        lambda path: pair_vocabulary(str(path)),
        lambda path: calibration_slice(path, 1),
        lambda path: PairsDataModule(pairs=str(path)).vocabulary,
    ]
    for read in readers:
        with pytest.raises(DataFormatError) as raised:
            read(short)
        assert str(raised.value) == missing
        with pytest.raises(DataFormatError, match=f"^{text}: not a pairs table with {', '.join(PAIR_COLUMNS)} "):
            read(text)
    none = tmp_path / "none.parquet"
    with pytest.raises(ResourceMissingError) as raised:
        read_pairs(none)
    assert str(raised.value) == f"{none}: no such pairs file; build it with `plausibility negatives`"

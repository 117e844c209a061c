"""The pairs file has one writer and one reader: every consumer refuses a bad file with the reader's words."""

from pathlib import Path

import pandas as pd
import pytest

from plausibility.baselines.glove_mlp import pair_vocabulary
from plausibility.corpus.artefacts import (
    PAIR_COLUMNS,
    TARGET_COLUMNS,
    read_pair_nouns,
    read_pair_targets,
    read_pairs,
    write_pairs,
)
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


def test_a_teachers_probabilities_reach_the_training_batches_beside_their_pairs(tmp_path: Path) -> None:
    path = tmp_path / "pairs.parquet"
    pairs = pd.DataFrame(
        [
            ("dog", "eat", "bone", "dog", "eat", "stone", 0.9, 0.2),
            ("person", "see", "air", "air", "see", "person", 0.6, 0.3),
        ],
        columns=[*PAIR_COLUMNS, *TARGET_COLUMNS],
    )
    pairs.to_parquet(path)
    assert read_pair_targets(path) == ([0.9, 0.6], [0.2, 0.3])
    module = PairsDataModule(pairs=str(path), batch_size=2)
    (batch,) = list(module.train_dataloader())
    order = [positive.subject for positive in batch.positives]  # the loader shuffles the pairs
    expected = {"dog": (0.9, 0.2), "person": (0.6, 0.3)}
    assert batch.targets == ([expected[s][0] for s in order], [expected[s][1] for s in order])
    write_pairs(path, [Triple("dog", "eat", "bone")], [Triple("dog", "eat", "stone")])
    assert read_pair_targets(path) is None
    assert next(iter(PairsDataModule(pairs=str(path)).train_dataloader())).targets is None


@pytest.mark.parametrize(
    ("targets", "error"),
    [
        ({"target": [0.5]}, "has target without its partner; give both of target, negative_target"),
        (
            {"target": [0.5], "negative_target": [1.5]},
            "negative_target holds values outside [0, 1]; give probabilities",
        ),
        ({"target": ["high"], "negative_target": [0.1]}, "target must be probabilities (floats, none missing), got"),
        ({"target": [None], "negative_target": [0.1]}, "target must be probabilities (floats, none missing), got"),
    ],
)
def test_target_columns_that_are_not_two_probabilities_are_refused(
    tmp_path: Path, targets: dict[str, list], error: str
) -> None:
    path = tmp_path / "pairs.parquet"
    pd.DataFrame(
        dict(zip(PAIR_COLUMNS, [["dog"], ["eat"], ["bone"], ["dog"], ["eat"], ["stone"]], strict=True)) | targets
    ).to_parquet(path)
    with pytest.raises(DataFormatError) as raised:
        read_pair_targets(path)
    assert str(raised.value).startswith(f"{path}: {error}")

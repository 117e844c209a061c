import gzip
import json
from pathlib import Path

import pytest

from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.minimal_pairs.readers import contrast_rows, ecbd, field_pairs, get_reader, row_roles
from plausibility.minimal_pairs.suite_config import load_suite
from plausibility.minimal_pairs.suite_runner import load_items


def test_lieder_items_split_context_and_continuation(fixtures: Path):
    suite = load_suite("lieder", data=fixtures / "minimal_pairs" / "lieder_two_items.jsonl")
    items = load_items(suite)
    assert [item.key for item in items] == ["1_dog/affirmative_negation", "2_car/affirmative_negation"]
    dog = items[0]
    assert dog.labels == {"family": "affirmative_negation"}
    assert len(dog.roles) == 12
    text = dog.roles["sg|pos_neg"]
    assert text.id == "1_dog_affirmative_negation_sref"
    assert text.context == "John owns a dog but Mark doesn't own a dog."
    assert text.continuation == "The dog is very cute."
    assert dog.roles["nonref|neg_neg"].continuation == "It's not a big deal."
    assert dog.roles["pl|neg_pos"].context == "John doesn't own a dog but Mark owns a dog."


def test_lieder_two_reads_explicit_plurality_contexts():
    items = load_items(load_suite("lieder", "two"))
    dog = next(item for item in items if item.key == "1_dog/affirmative_negation")
    assert dog.roles["sg|two_neg"].context == "John owns two dogs but Mark doesn't own a dog."
    assert dog.roles["pl|neg_two"].id == "1_dog_negation_two_pref"


def test_schuster_linzen_exp1_context_is_the_shared_words():
    items = load_items(load_suite("schuster_linzen", "exp1"))
    dog = items[0]
    assert dog.key == "1_dog"
    assert dog.roles["ref|affirmative"].context == "John owns a dog and"
    assert dog.roles["ref|affirmative"].continuation == "it follows him everywhere he goes."
    assert dog.roles["nonref|know"].context == "I know that John owns a dog."
    assert dog.roles["nonref|know"].continuation == "It's not a big deal."


def test_field_pairs_keeps_duplicate_ids_apart_by_order():
    items = load_items(load_suite("schuster_linzen", "exp2"))
    assert items[0].key == "1_dog_affirmative_negation_ref_1" and items[2].key == "1_dog_affirmative_negation_ref_2"
    assert items[0].labels == {"type": "affirmative_negation", "order": "1", "reference": "ref"}
    assert items[0].roles["expected"].context == "John owns a dog but he doesn't own a cat."


def test_row_roles_splits_off_the_first_sentence(fixtures: Path):
    suite = load_suite("anaphora_accessibility", "exp2", data=fixtures / "minimal_pairs" / "anaphora_exp2.jsonl")
    (item,) = load_items(suite)
    assert item.roles["DNE"].context == "It was not the case that the farmer didn't own a cow."
    assert item.roles["DNE"].continuation == "It was just away on the meadow."
    assert item.roles["DNE"].id == "exp2_0_def_NA_DNE"


def test_ecbd_fills_the_definition_and_cuts_the_probe_at_its_span(tmp_path: Path):
    row = {
        "ex_id": "E_1",
        "ent_str": "Foo",
        "definition": "Foo is a band <extra_id_0>.",
        "def_target": "<extra_id_0> from Oslo <extra_id_1>",
        "probe_sentences": {
            "template_0": {
                "probe_sentence": "Foo released <extra_id_0> in 2021.",
                "label": "<extra_id_0> an album <extra_id_1>",
            }
        },
    }
    path = tmp_path / "ecbd.json.gz"
    with gzip.open(path, "wt") as handle:
        handle.write(json.dumps(row) + "\n")
    (item,) = ecbd(path)
    assert item.roles["plain"].context == "Foo released" and item.roles["plain"].continuation == "an album"
    assert item.roles["definition"].context == "Foo is a band from Oslo. Foo released"
    assert item.labels == {"entity": "Foo"}


def test_missing_field_names_file_line_and_fields(tmp_path: Path):
    path = tmp_path / "pairs.jsonl"
    path.write_text(
        '{"sentence_good": "a b", "sentence_bad": "b a", "UID": "x", "field": "f"}\n'
        '{"sentence_good": "c", "UID": "x", "field": "f"}\n'
    )
    with pytest.raises(
        DataFormatError,
        match=r"pairs.jsonl line 2: missing field 'sentence_bad' \(fields present: UID, field, sentence_good\)",
    ):
        field_pairs(path, item_key=["UID", "@line"], text_fields={"good": "sentence_good", "bad": "sentence_bad"})


def test_empty_file_is_refused(tmp_path: Path):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n")
    with pytest.raises(DataFormatError, match=r"empty.jsonl: the file is empty"):
        row_roles(path, item_key=["frame"], role_fields=["sentence_type"])


def test_malformed_json_line_is_refused(tmp_path: Path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": \n')
    with pytest.raises(DataFormatError, match=r"bad.jsonl line 1: not valid JSON"):
        contrast_rows(path, text_fields={"ref": "i_sentence"})


def test_missing_data_file_is_refused(tmp_path: Path):
    with pytest.raises(DataFormatError, match=r"no such file"):
        load_items(load_suite("blimp", data=tmp_path / "absent.jsonl"))


def test_unknown_reader_lists_the_known_ones():
    with pytest.raises(UnknownNameError, match=r"unknown suite reader 'csv'; known: contrast_rows, ecbd, field_pairs"):
        get_reader("csv")


def test_anaphora_exp2_comparisons_share_their_continuation():
    suite = load_suite("anaphora_accessibility", "exp2")
    items = load_items(suite)
    assert len(items) == 96
    for item in items:
        for comparison in suite.comparisons:
            good, bad = item.roles[comparison.good], item.roles[comparison.bad]
            assert good.continuation == bad.continuation and good.context != bad.context

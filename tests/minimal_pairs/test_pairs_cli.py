import csv
import json
from pathlib import Path

import pytest

from plausibility.cli import main
from plausibility.minimal_pairs.score_table import read_scores, write_scores

BLIMP_THREE = str(Path(__file__).parent.parent / "fixtures" / "minimal_pairs" / "blimp_three")


def test_pairs_from_a_scores_file_writes_every_report(tmp_path: Path, fixtures: Path, capsys: pytest.CaptureFixture):
    data = fixtures / "minimal_pairs" / "lieder_two_items.jsonl"
    # Singular continuations score -1, all others -2: sg beats pl, and same-number comparisons tie (fail).
    ids = [json.loads(line)["id"] for line in data.read_text().splitlines()]
    roles = {text_id: -1.0 if text_id.endswith("_sref") else -2.0 for text_id in ids}
    write_scores(roles, tmp_path / "scores.csv")
    output = tmp_path / "report"
    scores = str(tmp_path / "scores.csv")
    code = main(["pairs", "lieder", "--data", str(data), "--scores", scores, "--output", str(output),
                 "--dump-scores", str(output / "dumped.csv")])  # fmt: skip
    assert code == 0
    assert sorted(path.name for path in output.iterdir()) == [
        "accuracy.png", "config.yaml", "dumped.csv", "results.csv", "summary.json"
    ]  # fmt: skip
    assert read_scores(output / "dumped.csv") == roles
    rows = list(csv.DictReader((output / "results.csv").open()))
    overall = {row["comparison"]: row for row in rows if row["group"] == "all"}
    assert (overall["p(sg|pos_neg)>p(pl|pos_neg)"]["n_items"], overall["p(sg|pos_neg)>p(pl|pos_neg)"]["accuracy"]) == (
        "2",
        "1.0",
    )
    assert overall["p(sg|pos_neg)>p(sg|pos_pos)"]["accuracy"] == "0.0"
    summary = json.loads((output / "summary.json").read_text())
    assert summary["comparisons"]["p(pl|pos_pos)>p(sg|pos_pos)"]["accuracy"] == 0.0
    assert (
        summary["comparisons"]["p(sg|neg_pos)>p(pl|neg_neg)"]["groups"]["family=affirmative_negation"]["accuracy"]
        == 1.0
    )
    assert summary["scores_file"] == str(tmp_path / "scores.csv")
    assert (output / "accuracy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "p(sg|pos_neg)>p(sg|pos_pos)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pairs", "lider"], "plausibility pairs: error: unknown suite 'lider'; known: anaphora_accessibility, blimp"),
        (
            ["pairs", "lieder", "--experiment", "three"],
            "unknown experiment of suite lieder 'three'; known: base, diff, two",
        ),
        (
            ["pairs", "blimp", "--data", BLIMP_THREE, "--uid", "npi_present_1,adjunct_island"],
            "unknown UID 'adjunct_island'; known: anaphor_gender_agreement, determiner_noun_agreement_1, npi_present_1",
        ),
        (
            ["pairs", "lieder", "--field", "syntax"],
            "the selection names label 'field', which the items do not carry; labels: family",
        ),
        (["pairs", "lieder", "--limit", "0"], "--limit must be a positive number of items, got 0"),
    ],
)
def test_pairs_bad_input_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture, argv, message):
    scores = tmp_path / "scores.csv"
    scores.write_text("id,logprob\nx,0\n")
    assert main([*argv, "--scores", str(scores), "--output", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1
    assert not (tmp_path / "out").exists()


def accuracies(report: Path) -> list[tuple[str, str, str]]:
    """(group, n_items, accuracy) of each row of a report's results.csv."""
    with (report / "results.csv").open() as handle:
        return [(row["group"], row["n_items"], row["accuracy"]) for row in csv.DictReader(handle)]


def test_pairs_blimp_reports_each_field_and_uid(tmp_path: Path, capsys: pytest.CaptureFixture):
    # Good sentences score -1 and bad ones -2, but anaphor_gender_agreement's second pair fails.
    ids = [f"{uid}_{line}" for uid, pairs in (("anaphor_gender_agreement", 2), ("determiner_noun_agreement_1", 4),
           ("npi_present_1", 2)) for line in range(1, pairs + 1)]  # fmt: skip
    scores = {f"{key}_good": -1.0 for key in ids} | {f"{key}_bad": -2.0 for key in ids}
    scores["anaphor_gender_agreement_2_good"] = -3.0
    write_scores(scores, tmp_path / "scores.csv")
    output = tmp_path / "report"
    argv = ["pairs", "blimp", "--data", BLIMP_THREE, "--scores", str(tmp_path / "scores.csv"), "--output"]
    assert main([*argv, str(output)]) == 0
    assert accuracies(output) == [
        ("all", "8", "0.875"),
        ("field=morphology", "6", "0.8333333333333334"),
        ("field=semantics", "2", "1.0"),
        ("UID=anaphor_gender_agreement", "2", "0.5"),
        ("UID=determiner_noun_agreement_1", "4", "1.0"),
        ("UID=npi_present_1", "2", "1.0"),
    ]
    summary = json.loads((output / "summary.json").read_text())  # to six decimals; results.csv keeps 5/6 whole
    assert summary["comparisons"]["good>bad"]["accuracy"] == 0.875
    assert {group: figures["accuracy"] for group, figures in summary["comparisons"]["good>bad"]["groups"].items()} == {
        "field=morphology": 0.833333, "field=semantics": 1.0, "UID=anaphor_gender_agreement": 0.5,
        "UID=determiner_noun_agreement_1": 1.0, "UID=npi_present_1": 1.0,
    }  # fmt: skip
    assert summary["where"] == {}
    table = capsys.readouterr().out
    assert "UID=determiner_noun_agreement_1" in table and "field=semantics" in table  # per group without a flag

    selected = tmp_path / "selected"
    assert main([*argv, str(selected), "--field", "morphology", "--uid", "anaphor_gender_agreement"]) == 0
    assert accuracies(selected) == [
        ("all", "2", "0.5"), ("field=morphology", "2", "0.5"), ("UID=anaphor_gender_agreement", "2", "0.5")
    ]  # fmt: skip
    summary = json.loads((selected / "summary.json").read_text())
    assert summary["where"] == {"UID": ["anaphor_gender_agreement"], "field": ["morphology"]}


def test_several_lms_give_one_report_equal_to_their_single_runs(tmp_path: Path, lm_folders: dict[str, Path]):
    causal, masked = str(lm_folders["causal"]), str(lm_folders["masked"])
    argv = ["pairs", "blimp", "--data", BLIMP_THREE]
    assert main([*argv, "--model", f"{causal},{masked}", "--dump-tokens", str(tmp_path / "tokens.csv"),
                 "--output", str(tmp_path / "both")]) == 0  # fmt: skip
    for name, lm in (("causal", causal), ("masked", masked)):
        assert (
            main(
                [*argv, "--model", lm, "--output", str(tmp_path / name), "--dump-scores", str(tmp_path / f"{name}.csv")]
            )
            == 0
        )

    both = json.loads((tmp_path / "both" / "summary.json").read_text())
    assert both["lms"] == [causal, masked]
    for name, lm in (("causal", causal), ("masked", masked)):
        alone = json.loads((tmp_path / name / "summary.json").read_text())
        assert both["by_lm"][lm] == alone
        rows = [row for row in csv.DictReader((tmp_path / "both" / "results.csv").open()) if row["lm"] == lm]
        assert rows == list(csv.DictReader((tmp_path / name / "results.csv").open()))
        # Each text's tokens add up to the score it was compared by.
        tokens = [row for row in csv.DictReader((tmp_path / "tokens.csv").open()) if row["lm"] == lm]
        totals: dict[str, float] = {}
        for row in tokens:
            totals[row["id"]] = totals.get(row["id"], 0.0) + float(row["logprob"])
        # the same batches in both runs, written by repr: only the float64 summation order differs (~1e-14)
        assert totals == pytest.approx(read_scores(tmp_path / f"{name}.csv"), abs=1e-9)
    assert both["by_lm"][masked]["pll"] == "word-l2r" and both["by_lm"][causal]["pll"] is None


def test_word_units_sum_the_tokens_of_each_word(tmp_path: Path, lm_folders: dict[str, Path]):
    lm = str(lm_folders["causal"])
    argv = ["pairs", "blimp", "--data", BLIMP_THREE, "--model", lm]
    assert main([*argv, "--unit", "word", "--dump-tokens", str(tmp_path / "words.csv"), "--output", str(tmp_path / "w"),
                 "--dump-scores", str(tmp_path / "word_scores.csv")]) == 0  # fmt: skip
    assert main([*argv, "--output", str(tmp_path / "t"), "--dump-scores", str(tmp_path / "token_scores.csv")]) == 0
    words = list(csv.DictReader((tmp_path / "words.csv").open()))
    first = [row["piece"] for row in words if row["id"] == "anaphor_gender_agreement_1_good"]
    assert first == ["Katherine", "can't", "help", "herself."]
    # This tokenizer marks no word start, so word scores are plain sums: the texts' scores do not move.
    # the same token values (same requests, same batches), summed by word then text vs by text: float64, ~1e-15
    assert read_scores(tmp_path / "word_scores.csv") == pytest.approx(read_scores(tmp_path / "token_scores.csv"))
    summary = json.loads((tmp_path / "w" / "summary.json").read_text())
    assert (summary["unit"], summary["bow_correction"]) == ("word", False)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--pll", "original"], "--pll is for masked LMs and {causal} is causal; drop --pll"),
        (["--model", "{causal}"], "--model names a model twice ({causal}, {causal}); name each once"),
        (["--scores", "{scores}"], "--scores replaces the language model; drop --model and --dump-tokens, or --scores"),
        (["--unit", "word", "--slor-corpus", "{scores}"], "SLOR is a score per token"),
    ],
)
def test_pairs_options_that_do_not_go_together_are_refused(
    tmp_path: Path, lm_folders: dict[str, Path], capsys: pytest.CaptureFixture, extra: list[str], message: str
):
    scores = tmp_path / "scores.csv"
    scores.write_text("id,logprob\nx,0\n")
    causal = str(lm_folders["causal"])
    names = {"causal": causal, "scores": str(scores)}
    suite = ["anaphora_accessibility", "--experiment", "exp3"] if "--slor-corpus" in extra else ["blimp"]
    extra = [part.format(**names) for part in extra]
    assert main(["pairs", *suite, "--model", causal, *extra, "--output", str(tmp_path / "out")]) == 1
    error = capsys.readouterr().err
    assert message.format(**names) in error and error.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.numeric
def test_two_workers_write_the_report_one_process_writes(tmp_path: Path, lm_folders: dict[str, Path]):
    causal, masked = str(lm_folders["causal"]), str(lm_folders["masked"])
    argv = ["pairs", "blimp", "--limit", "4", "--model", f"{causal},{masked}"]  # 536 texts: two chunks of 512
    for workers in ("1", "2"):
        out = tmp_path / workers
        assert main([*argv, "--workers", workers, "--output", str(out), "--dump-tokens", str(out / "t.csv")]) == 0
    one, two = (json.loads((tmp_path / w / "summary.json").read_text()) for w in ("1", "2"))
    assert two == one and two["by_lm"][masked]["pll"] == "word-l2r"
    tokens = [list(csv.DictReader((tmp_path / w / "t.csv").open())) for w in ("1", "2")]
    assert [row["piece"] for row in tokens[1]] == [row["piece"] for row in tokens[0]]
    assert [float(row["logprob"]) for row in tokens[1]] == pytest.approx(
        [float(r["logprob"]) for r in tokens[0]], abs=1e-5
    )


def test_workers_are_refused_with_a_scores_file(tmp_path: Path, capsys: pytest.CaptureFixture):
    scores = tmp_path / "scores.csv"
    scores.write_text("id,logprob\nx,0\n")
    assert main(["pairs", "blimp", "--scores", str(scores), "--workers", "2", "--output", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (
        "plausibility pairs: error: --workers and --devices share out a language model's scoring; "
        "drop them with --scores\n"
    )

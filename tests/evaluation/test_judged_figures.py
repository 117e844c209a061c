"""Figures of judged sets on hand-computed scores: AUC, Spearman / Pearson, pairwise accuracy, groups, fillers."""

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr, spearmanr

from plausibility.benchmarks.judged_set import read_judged_set
from plausibility.evaluation.judged_figures import judged_figures
from plausibility.evaluation.judged_scores import score_judged_set
from plausibility.triple import Triple

SCORES = {
    "person eat apple": 3.0,
    "dog eat bone": 1.0,
    "stone eat apple": 2.0,
    "person read book": 0.5,
    "book read person": 0.5,  # tied with a plausible event: counts one half
    "child drink stone": 0.0,
    "person eat bread": 5.0,
    "thing eat bread": 1.0,
    "person read person": -1.0,
    "person read thing": 0.0,
    "dog chase cat": 1.0,
    "cat chase dog": 1.0,
    "child read book": 0.0,
    "book read child": 0.5,
}


class KnownScores:
    """A scorer whose score of each event is fixed above, and that counts what it is asked to score."""

    probability_mapping = "none"
    lexicon = None

    def __init__(self) -> None:
        self.asked: list[Triple] = []

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        self.asked += list(triples)
        return np.array([SCORES[str(triple)] for triple in triples])

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return scores


def _figures(path: Path, by: Sequence[str] = ()) -> dict[tuple[str, str], object]:
    judged = read_judged_set(path)
    figures = judged_figures(judged, score_judged_set(KnownScores().score, judged), by)
    return {(figure.group, figure.figure): figure for figure in figures}


def test_auc_over_all_events_and_per_group_is_the_hand_computed_one(fixtures: Path) -> None:
    figures = _figures(fixtures / "judged" / "labelled.tsv", by=["relation"])
    # plausible 3, 1, 0.5 against implausible 2, 0.5, 0: wins 3 + 2 + 1.5 of 9 pairs
    assert figures[("all", "auc")].value == pytest.approx(6.5 / 9)  # sklearn's float64 trapezoids: a few ulps
    assert figures[("all", "auc")].n == 6 and figures[("all", "auc")].low <= 6.5 / 9 <= figures[("all", "auc")].high
    # Both exact: areas of binary fractions of integer counts.
    assert figures[("relation=food", "auc")].value == pytest.approx(0.5)  # 3 > 2, 1 < 2
    assert figures[("relation=thing", "auc")].value == pytest.approx(0.75)  # 0.5 ties 0.5, beats 0
    assert sorted(figures) == [("all", "auc"), ("relation=food", "auc"), ("relation=thing", "auc")]


def test_a_partial_event_scores_as_the_mean_over_its_fillers(fixtures: Path) -> None:
    judged = read_judged_set(fixtures / "judged" / "rated.csv")
    scorer = KnownScores()
    scores = score_judged_set(scorer.score, judged, fillers=("person", "thing"))
    filled = KnownScores().score([Triple("person", "eat", "bread"), Triple("thing", "eat", "bread")]).mean()
    assert scores.tolist() == [3.0, 1.0, 2.0, filled, (SCORES["person read person"] + SCORES["person read thing"]) / 2]
    assert len(scorer.asked) == len(set(scorer.asked)) == 7  # each distinct triple once, in one call


def test_correlations_with_ratings_are_scipys(fixtures: Path) -> None:
    figures = _figures(fixtures / "judged" / "rated.csv")
    scores, ratings = [3.0, 1.0, 2.0, 3.0, -0.5], [4.5, 4.0, 1.0, 3.5, 2.0]
    # Both exact: scipy's own statistic on the same float64 arrays.
    assert figures[("all", "spearman")].value == pytest.approx(spearmanr(scores, ratings).statistic)
    assert figures[("all", "pearson")].value == pytest.approx(pearsonr(scores, ratings).statistic)
    assert figures[("all", "spearman")].n == 5


def test_pairwise_accuracy_counts_a_tie_as_one_half(fixtures: Path) -> None:
    figures = _figures(fixtures / "judged" / "pairs.jsonl")
    # pair a: 3 > 2 right; pair b: 1 = 1 a tie; pair c: 0 < 0.5 wrong
    assert figures[("all", "pairwise_accuracy")].value == pytest.approx(0.5)  # exact: the mean of 1, 0.5 and 0
    assert figures[("all", "pairwise_accuracy")].n == 3 and set(figures) == {("all", "pairwise_accuracy")}


def test_evaluate_runs_files_beside_the_benchmarks_in_one_table(
    fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from plausibility.cli import main

    spec = f"ngram:{fixtures / 'ngram_triples.tsv'}"
    data = [fixtures / "judged" / name for name in ("labelled.tsv", "rated.csv", "pairs.jsonl")]
    arguments = ["evaluate", "--model", spec, "--benchmarks", "pep3k", "--splits", "test", "--by", "relation"]
    arguments += [argument for path in data for argument in ("--data", str(path))]
    assert main([*arguments, "--output", str(tmp_path / "out"), "--dump-scores", str(tmp_path / "scores.tsv")]) == 0
    figures = json.loads((tmp_path / "out" / "metrics.json").read_text())["figures"]
    rows = [(f["benchmark"], f["split"], f["group"], f["figure"]) for f in figures]
    assert rows == [
        ("pep3k", "test", "all", "auc"),
        ("labelled", "all", "all", "auc"),
        ("labelled", "all", "relation=food", "auc"),
        ("labelled", "all", "relation=thing", "auc"),
        ("rated", "all", "all", "spearman"),
        ("rated", "all", "all", "pearson"),
        ("pairs", "all", "all", "pairwise_accuracy"),
    ]
    assert json.loads((tmp_path / "out" / "metrics.json").read_text())["fillers"] == ["person", "thing"]
    dumped = (tmp_path / "scores.tsv").read_text().splitlines()
    assert len(dumped) == 1 + 1531 + 6 + 5 + 6
    assert dumped[-7].endswith("\tperson,thing")  # rated.csv's partial events name their fillers
    table = pd.read_csv(tmp_path / "scores.tsv", sep="\t")
    assert table["score"].dtype == np.float64  # a number a reader parses, written to round-trip float64
    assert "| labelled | all | relation=food | auc |" in (tmp_path / "out" / "metrics.md").read_text()
    assert "relation" in capsys.readouterr().out


def test_evaluate_refuses_a_malformed_file_before_loading_any_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from plausibility.cli import main

    bad = tmp_path / "bad.tsv"
    bad.write_text("pair\tsubject\tverb\tobject\tlabel\np\tcat\teat\tfish\t1\np\tdog\teat\tfish\t1\n")
    assert main(["evaluate", "--model", "no-such-model", "--data", str(bad), "--output", str(tmp_path / "o")]) == 1
    assert capsys.readouterr().err == (
        f"plausibility evaluate: error: {bad}: pair 'p' (rows 1, 2) must hold exactly one typical (label 1) and one "
        "atypical (label 0) event\n"
    )
    assert not (tmp_path / "o").exists()


def test_evaluate_on_two_workers_writes_the_figures_and_scores_of_one_process(fixtures: Path, tmp_path: Path) -> None:
    from plausibility.cli import main

    spec = f"ngram:{fixtures / 'ngram_triples.tsv'}"  # Pep-3k's test half is three units of the pool's 512
    arguments = ["evaluate", "--model", spec, "--benchmarks", "pep3k", "--splits", "test"]
    arguments += ["--data", str(fixtures / "judged" / "labelled.tsv")]
    for workers in ("1", "2"):
        dump = ["--dump-scores", str(tmp_path / f"scores-{workers}.tsv")]
        assert main([*arguments, "--workers", workers, "--output", str(tmp_path / workers), *dump]) == 0
    assert (tmp_path / "scores-2.tsv").read_text() == (tmp_path / "scores-1.tsv").read_text()
    assert (tmp_path / "2" / "metrics.csv").read_text() == (tmp_path / "1" / "metrics.csv").read_text()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--devices", "2"], "--devices N takes one worker per GPU: give --device cuda (no index) with it"),
        (
            ["--device", "cuda", "--devices", "2", "--workers", "2"],
            "--devices N starts one worker per GPU; drop --workers",
        ),
    ],
)
def test_evaluate_refuses_worker_options_that_do_not_go_together(
    options: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from plausibility.cli import main

    assert main(["evaluate", "--model", "ngram", *options, "--output", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == f"plausibility evaluate: error: {message}\n"
    assert not (tmp_path / "o").exists()


def test_agreed_labels_leave_out_and_count_the_events_annotators_did_not_agree_on(tmp_path: Path) -> None:
    table = tmp_path / "agreed.tsv"
    rows = ["person eat apple 1 1", "dog eat bone 1 ", "stone eat apple 0 0", "child drink stone 0 1"]
    lines = ["subject\tverb\tobject\tlabel\tagreed_label", *("\t".join(row.split(" ")) for row in rows)]
    table.write_text("\n".join(lines) + "\n")
    figures = _figures(table)
    # built labels: plausible 3, 1 against implausible 2, 0: 3 of 4 pairs; agreed: 3 and 0 plausible, 2 not
    # Both exact: sklearn's areas over integer counts, binary fractions here.
    assert figures[("all", "auc")].value == pytest.approx(3 / 4)
    assert figures[("all", "auc_agreed")].value == pytest.approx(1 / 2) and figures[("all", "auc_agreed")].n == 3
    unsure = figures[("all", "unsure")]
    assert (unsure.value, unsure.n) == (1 / 4, 4) and unsure.low != unsure.low  # no interval: a count, not a score


def test_accuracy_at_half_counts_the_probabilities_on_the_labels_side(tmp_path: Path) -> None:
    from plausibility.benchmarks.judged_set import JudgedSet

    judged = read_judged_set(_labelled(tmp_path))
    judged = JudgedSet(judged.name, judged.split, judged.table, judged.kinds, ("relation",), accuracy=True)
    probabilities = np.array([0.9, 0.4, 0.6, 0.7, 0.5, 0.1])  # labels 1 1 0 1 0 0: right, wrong, wrong, right x3
    figures = {(f.group, f.figure): f for f in judged_figures(judged, probabilities, (), 0, probabilities)}
    # Both exact: a mean of 0/1 values is the count over n, rounded once as 4 / 6 and 1 / 3 are.
    assert figures[("all", "accuracy_at_half")].value == pytest.approx(4 / 6)
    assert figures[("relation=food", "accuracy_at_half")].value == pytest.approx(1 / 3)  # own `by`, not asked for
    assert ("all", "accuracy_at_half") not in {(f.group, f.figure) for f in judged_figures(judged, probabilities)}


def _labelled(tmp_path: Path) -> Path:
    path = tmp_path / "labelled.tsv"
    rows = ["person eat apple 1 food", "dog eat bone 1 food", "stone eat apple 0 food", "person read book 1 thing"]
    rows += ["book read person 0 thing", "child drink stone 0 thing"]
    path.write_text("\n".join(["subject\tverb\tobject\tlabel\trelation", *(r.replace(" ", "\t") for r in rows)]) + "\n")
    return path


def test_reversal_accuracy_orders_each_event_against_its_own_reversal(tmp_path: Path) -> None:
    table = tmp_path / "reversals.tsv"
    rows = ["dog chase cat 1 r1", "cat chase dog 0 r1", "child read book 1 r2", "book read child 0 r2"]
    rows += ["person eat apple 1 -", "stone eat apple 0 -"]
    lines = ["subject\tverb\tobject\tlabel\treversal_of", *(r.replace(" -", " ").replace(" ", "\t") for r in rows)]
    table.write_text("\n".join(lines) + "\n")
    figures = _figures(table)
    # r1: 1.0 ties 1.0 (one half); r2: 0.0 below 0.5 (wrong); the unpaired events count for the AUC only
    assert figures[("all", "reversal_accuracy")].value == pytest.approx(0.25)  # exact: the mean of 0.5 and 0
    assert figures[("all", "reversal_accuracy")].n == 2 and figures[("all", "auc")].n == 6


def test_evaluate_reads_a_file_of_agreed_labels_and_reversals_and_names_their_figures(
    fixtures: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import json
    import logging

    from plausibility.cli import main

    data = tmp_path / "mine.tsv"
    rows = ["dog chase cat 1 1 r1", "cat chase dog 0 0 r1", "person eat apple 1 - -", "stone eat apple 0 0 -"]
    lines = ["subject\tverb\tobject\tlabel\tagreed_label\treversal_of"]
    lines += ["\t".join("" if word == "-" else word for word in row.split(" ")) for row in rows]
    data.write_text("\n".join(lines) + "\n")
    spec = f"ngram:{fixtures / 'ngram_triples.tsv'}"
    with caplog.at_level(logging.INFO):
        arguments = ["evaluate", "--model", spec, "--benchmarks", "none", "--data", str(data)]
        assert main([*arguments, "--output", str(tmp_path / "out")]) == 0
    figures = json.loads((tmp_path / "out" / "metrics.json").read_text())["figures"]
    assert [f["figure"] for f in figures] == ["auc", "reversal_accuracy", "auc_agreed", "unsure"]
    assert "read as AUC, reversal accuracy, AUC on agreed labels" in caplog.text

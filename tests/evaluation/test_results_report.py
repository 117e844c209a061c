"""The results report: AUC intervals, thesis lookup, tables, files, and the `plausibility report` command."""

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.cli import main
from plausibility.cli.report import parse_model
from plausibility.corpus.artefacts import write_triples
from plausibility.errors import PlausibilityError
from plausibility.evaluation.intervals import AucInterval, auc_difference_interval, auc_interval, rank_auc
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.report import Report, build_report
from plausibility.evaluation.results import (
    ConsistencyFigures,
    ModelResult,
    ReportSettings,
    consistency_sample,
    evaluate_scorer,
)
from plausibility.evaluation.results_report import (
    auc_markdown,
    chart_values,
    consistency_markdown,
    write_results_report,
)
from plausibility.evaluation.saved_results import SavedResults
from plausibility.evaluation.thesis import THESIS, thesis_figures
from plausibility.lexicon.event_lemmas import EventLemmas
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple


class LabelScorer:
    """Scores each evaluation event by its human label (plus a fixed noise): a scorer with a known AUC."""

    probability_mapping = "the score itself"
    lexicon = None

    def __init__(self, noise: float) -> None:
        # The evaluation scores each event as its lemmas, and 20Q's valid `person see atoms` (1) is its test half's
        # `person see atom` (0): the oracle knows the halves whose AUC is checked.
        checked = (("pep3k", "valid"), ("pep3k", "test"), ("20q", "valid"))
        halves = [load_plausibility_set(name, split) for name, split in checked]
        events = [event for half in halves for event in half]
        lemmas = EventLemmas()([event.triple for event in events])
        self.labels = dict(zip(lemmas, [event.label for event in events], strict=True))
        self.noise = noise

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return np.array([self.labels.get(t, 0.5) * (1 - self.noise) + self.noise * 0.5 for t in triples])

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return np.asarray(scores, dtype=np.float64)


def interval(estimate: float, low: float, high: float) -> AucInterval:
    return AucInterval(estimate, low, high)


def result(label: str, consistency: bool = True) -> ModelResult:
    auc = {
        "pep3k": {"valid": interval(0.6, 0.58, 0.62), "test": interval(0.61, 0.59, 0.63)},
        "20q": {"valid": interval(0.55, 0.5, 0.6), "test": interval(0.5, 0.45, 0.551)},
    }
    lexicon = {"vocabulary": "all of WordNet", "vocabulary_size": None, "min_depth": 4, "wsd": "mfs"}
    figures = {
        "pep3k": ConsistencyFigures(0.0412, 0.2, 0.5, 10, 40, lexicon),
        "20q": ConsistencyFigures(0.1, 0.3, 0.25, 10, 20, lexicon),
    }
    return ModelResult(label, label, "sigmoid", auc, figures if consistency else {})


def test_rank_auc_equals_sklearn_with_ties_and_by_hand() -> None:
    # pairs (positive, negative): .9 > .5, .9 > .1, .4 < .5, .4 > .1 -> 3 of 4
    assert rank_auc(np.array([0.9, 0.4]), np.array([0.5, 0.1])) == pytest.approx(0.75)  # exact: integer ranks / 4
    assert rank_auc(np.array([0.5]), np.array([0.5])) == pytest.approx(0.5)  # exact: mid-ranks are halves
    rng = np.random.default_rng(0)
    labels = np.repeat([1, 0], 50)
    scores = np.round(rng.normal(size=100) + labels, 1)  # rounded: many ties
    # Mann-Whitney rank sums vs sklearn's trapezoids: float64, a few ulps
    assert rank_auc(scores[:50], scores[50:]) == pytest.approx(roc_auc_score(labels, scores))


def test_auc_interval_is_reproducible_and_brackets_the_estimate() -> None:
    rng = np.random.default_rng(1)
    labels = np.repeat([1, 0], 200)
    scores = rng.normal(size=400) + 0.5 * labels
    first = auc_interval(labels, scores, np.random.default_rng(7), n_resamples=300)
    assert first == auc_interval(labels, scores, np.random.default_rng(7), n_resamples=300)
    assert first.estimate == pytest.approx(roc_auc_score(labels, scores))  # exact: the estimate is sklearn's AUC
    assert first.low < first.estimate < first.high
    assert 0.05 < first.high - first.low < 0.15  # about 4 standard errors of an AUC over 200 + 200 events
    assert auc_interval([1, 0, 1, 0], [0.3] * 4, np.random.default_rng(0)) == AucInterval(0.5, 0.5, 0.5)


def test_a_paired_difference_interval_is_narrower_than_one_auc_and_flips_with_the_order() -> None:
    rng = np.random.default_rng(1)
    labels = np.repeat([1, 0], 200)
    better = rng.normal(size=400) + 0.6 * labels
    worse = better + np.random.default_rng(2).normal(size=400) * 0.8  # the same scorer with noise added
    difference = auc_difference_interval(labels, better, worse, np.random.default_rng(7), n_resamples=300)
    # exact: the same two sklearn AUCs, subtracted
    assert difference.estimate == pytest.approx(roc_auc_score(labels, better) - roc_auc_score(labels, worse))
    assert 0 < difference.low < difference.estimate < difference.high
    own = auc_interval(labels, better, np.random.default_rng(7), n_resamples=300)
    # two independent AUCs' difference would be about 1.4 times as wide as one AUC's interval
    assert difference.high - difference.low < own.high - own.low
    flipped = auc_difference_interval(labels, worse, better, np.random.default_rng(7), n_resamples=300)
    assert flipped.estimate == pytest.approx(-difference.estimate)  # exact: a - b is -(b - a) in IEEE arithmetic
    # The same resamples (seed 7), each difference negated exactly: the percentile bounds mirror up to the float64
    # rounding of their interpolation (~1e-17).
    assert flipped.low == pytest.approx(-difference.high, abs=1e-12) and flipped.high < 0
    assert auc_difference_interval(labels, better, better, np.random.default_rng(0)) == AucInterval(0.0, 0.0, 0.0)


def test_thesis_rows_are_found_by_model_name() -> None:
    assert thesis_figures("ngram") is THESIS["n-gram"]
    assert thesis_figures("ngram:triples.parquet") is THESIS["n-gram"]
    assert thesis_figures("zero-shot:gpt2") is THESIS["RoBERTa zero-shot"]
    assert thesis_figures("concept_max") is THESIS["ConceptMax"]
    assert thesis_figures("GloVe+MLP").auc == {"pep3k": 0.55, "20q": 0.52}
    assert thesis_figures("conceptmax:zero-shot") is None  # a wrapper the thesis never tried
    assert thesis_figures("resnik") is None
    assert THESIS["RoBERTa"].consistency["pep3k"] == (0.09, 0.52)


def test_models_are_labelled_by_choice_by_run_folder_or_by_spec() -> None:
    checkpoint = "runs/roberta/checkpoints/last.ckpt"
    assert parse_model(f"RoBERTa={checkpoint}") == ModelRequest("RoBERTa", checkpoint)
    assert parse_model(checkpoint) == ModelRequest("roberta", checkpoint)
    spec = "glove-mlp:runs/glove_mlp/checkpoints/epoch=1-step=9.ckpt"
    assert parse_model(spec) == ModelRequest("glove_mlp", spec)
    assert parse_model("zero-shot") == ModelRequest("zero-shot", "zero-shot")
    with pytest.raises(PlausibilityError, match="give LABEL=SPEC with both parts"):
        parse_model("label=")


def test_tables_show_intervals_and_the_thesis_figures_beside() -> None:
    models = [result("ngram"), result("resnik")]
    assert auc_markdown(models).splitlines() == [
        "| model | Pep-3k valid | Pep-3k test | Pep-3k test (thesis) | 20Q valid | 20Q test | 20Q test (thesis) |",
        "|---|---:|---:|---:|---:|---:|---:|",
        "| ngram | .600 [.580, .620] | .610 [.590, .630] | .51 | .550 [.500, .600] | .500 [.450, .551] | .52 |",
        "| resnik | .600 [.580, .620] | .610 [.590, .630] | – | .550 [.500, .600] | .500 [.450, .551] | – |",
    ]
    lines = consistency_markdown([result("ngram"), result("x", consistency=False)]).splitlines()
    assert lines[0].startswith("| model | Pep-3k CCΔ | Pep-3k CCΔ scale-free | Pep-3k LER | Pep-3k CCΔ (thesis) |")
    assert lines[2] == "| ngram | .041 | .200 | .500 | .06 | .50 | .100 | .300 | .250 | .07 | .50 |"
    assert lines[3] == "| x | – | – | – | – | – | – | – | – | – | – |"


def test_chart_values_give_error_bar_lengths() -> None:
    estimates, below, above = chart_values([result("ngram")])
    np.testing.assert_allclose(estimates, [[0.6, 0.61, 0.55, 0.5]])  # exact: the intervals' own estimates
    # Both: float64 differences of decimals (0.6 - 0.58 is 0.020000000000000018), a few ulps.
    np.testing.assert_allclose(below, [[0.02, 0.02, 0.05, 0.05]])
    np.testing.assert_allclose(above, [[0.02, 0.02, 0.05, 0.051]])


def test_consistency_sample_is_seeded_sorted_and_per_dataset() -> None:
    settings = ReportSettings(consistency_events=5)
    sample = consistency_sample(100, settings, "pep3k")
    assert sample == sorted(sample) and len(set(sample)) == 5
    assert sample == consistency_sample(100, settings, "pep3k")
    assert sample != consistency_sample(100, settings, "20q")
    assert consistency_sample(3, settings, "pep3k") == [0, 1, 2]
    assert consistency_sample(4, ReportSettings(consistency_events=None), "20q") == [0, 1, 2, 3]


def test_evaluate_scorer_measures_known_aucs_and_consistency() -> None:
    settings = ReportSettings(n_resamples=100, consistency_events=5)
    perfect = evaluate_scorer(ModelRequest("oracle", "-"), LabelScorer(noise=0.0), settings)
    assert perfect.auc["pep3k"]["test"] == AucInterval(1.0, 1.0, 1.0)
    assert perfect.auc["20q"]["valid"] == AucInterval(1.0, 1.0, 1.0)
    assert perfect.consistency["pep3k"].events == 5
    # Abstractions are unknown to the label scorer (0.5) and only the event's own cell differs, at the end of
    # its row and column: a middle value always ties a neighbour (no extremum), and a window sags by at most
    # (0.5 + 1) / 2 - 0.5 = 0.25.
    for dataset in ("pep3k", "20q"):
        assert perfect.consistency[dataset].ler == 0.0
        assert 0.0 <= perfect.consistency[dataset].ccd <= 0.25
        assert perfect.consistency[dataset].lexicon["vocabulary"] == "the bundled training nouns"
    flat = evaluate_scorer(ModelRequest("flat", "-"), LabelScorer(noise=1.0), settings, consistency=False)
    assert flat.auc["20q"]["test"] == AucInterval(0.5, 0.5, 0.5) and flat.consistency == {}


def test_build_report_skips_optional_models_that_do_not_load_and_writes_every_file(tmp_path: Path) -> None:
    settings = ReportSettings(n_resamples=50)
    optional = [ModelRequest("missing", "no-such-model")]
    report = build_report([], optional, settings, build_scorer, consistency=False)
    assert report.models == [] and report.skipped["missing"].startswith("unknown model 'no-such-model'")
    with pytest.raises(PlausibilityError, match="unknown model"):
        build_report(optional, [], settings, build_scorer, consistency=False)

    full = Report([result("ngram"), result("resnik")], settings, {"zero-shot": "not installed"})
    paths = write_results_report(full, [ModelRequest("ngram", "ngram")], tmp_path / "out")
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == [
        "auc.png",
        "config.yaml",
        "report.md",
        "results.json",
    ]
    document = json.loads(paths["results.json"].read_text())
    assert document["models"][0]["auc"]["pep3k"]["test"] == {"estimate": 0.61, "low": 0.59, "high": 0.63}
    assert document["models"][0]["thesis"]["auc"] == {"pep3k": 0.51, "20q": 0.52}
    assert document["models"][1]["thesis"] is None
    assert document["skipped"] == {"zero-shot": "not installed"}
    markdown = paths["report.md"].read_text()
    assert "| ngram | .600 [.580, .620]" in markdown and "- **zero-shot**: not installed" in markdown
    assert paths["auc.png"].read_bytes().startswith(b"\x89PNG")


def test_a_stopped_report_resumes_from_the_rows_it_saved(tmp_path: Path) -> None:
    settings = ReportSettings(n_resamples=20, consistency_events=5)
    checkpoint = tmp_path / "model.ckpt"
    checkpoint.write_bytes(b"weights")
    request = ModelRequest("oracle", f"conceptmax:{checkpoint}")
    loaded: list[str] = []

    def load(spec: str) -> LabelScorer:
        loaded.append(spec)
        return LabelScorer(noise=0.2)

    saved = SavedResults(tmp_path / "models")
    first = build_report([request], [], settings, load, False, saved)
    again = build_report([request], [], settings, load, False, saved)
    assert again.models == first.models and loaded == [request.spec]
    assert json.loads((tmp_path / "models" / "oracle.json").read_text())["result"]["label"] == "oracle"

    # another setting, another consistency choice, or a rewritten checkpoint: measured again
    build_report([request], [], ReportSettings(n_resamples=30, consistency_events=5), load, False, saved)
    build_report([request], [], settings, load, True, saved)
    build_report([request], [], settings, load, True, saved)  # read back: nothing changed
    checkpoint.write_bytes(b"retrained weights")
    build_report([request], [], settings, load, True, saved)
    assert len(loaded) == 4


def test_report_command_writes_the_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    triples = tmp_path / "triples.parquet"
    write_triples(triples, {Triple("dog", "eat", "bone"): 3, Triple("person", "eat", "food"): 2})
    output = tmp_path / "report"
    arguments = ["report", "--output", str(output), "--model", f"n-gram=ngram:{triples}", "--no-consistency"]
    assert main([*arguments, "--resamples", "20", "--no-runs"]) == 0
    results = json.loads((output / "results.json").read_text())
    assert [model["label"] for model in results["models"]] == ["n-gram"]
    assert set(results["models"][0]["auc"]) == {"pep3k", "20q"}
    assert "Consistency" not in (output / "report.md").read_text()

    assert main(["report", "--output", str(tmp_path / "bad"), "--model", "nonsense", "--no-runs"]) == 1
    assert "plausibility report: error: unknown model 'nonsense'" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()


def test_trained_runs_are_found_with_their_best_checkpoint(tmp_path: Path) -> None:
    import torch

    from plausibility.cli.report import run_checkpoints

    def save(path: Path, class_path: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save({"hyper_parameters": {"net": {"class_path": class_path}}, "state_dict": {}}, path)

    save(tmp_path / "roberta" / "checkpoints" / "last.ckpt", "plausibility.models.components.classifier.X")
    save(tmp_path / "roberta" / "checkpoints" / "epoch=0-step=9.ckpt", "plausibility.models.components.classifier.X")
    save(tmp_path / "glove_mlp" / "checkpoints" / "last.ckpt", "plausibility.baselines.glove_mlp.GloveMlpNet")
    (tmp_path / "empty" / "checkpoints").mkdir(parents=True)
    (tmp_path / "torn" / "checkpoints").mkdir(parents=True)
    (tmp_path / "torn" / "checkpoints" / "last.ckpt").write_bytes(b"not a checkpoint")
    assert run_checkpoints(tmp_path) == [
        ModelRequest("glove_mlp", str(tmp_path / "glove_mlp" / "checkpoints" / "last.ckpt")),
        ModelRequest("roberta", str(tmp_path / "roberta" / "checkpoints" / "epoch=0-step=9.ckpt")),
        ModelRequest("torn", str(tmp_path / "torn" / "checkpoints" / "last.ckpt")),
    ]

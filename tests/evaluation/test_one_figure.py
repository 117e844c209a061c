"""One figure, one value: the Pep-3k test AUC of a model is the same through `evaluate` (command and Python), the
report (and demo), an export's measure and the AUC Lightning logs; one event, read as its lemmas, gets one score
from `score`, `evaluate --dump-scores`, the Python API and `serve`, and Lightning validates on those lemmas."""

import json
from pathlib import Path

import pandas as pd
from fastapi.testclient import TestClient

import plausibility
from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.cli import main
from plausibility.evaluation.judged_scores import figures_of
from plausibility.evaluation.model_request import ModelRequest
from plausibility.evaluation.results import ReportSettings, auc_intervals, evaluate_scorer, scored_halves
from plausibility.metrics import roc_auc
from plausibility.models.datamodule import PairsDataModule
from plausibility.scorers.registry import build_scorer
from plausibility.serve.app import build_app
from plausibility.serve.served import load_models
from plausibility.triple import Triple

FIXTURES = Path(__file__).parents[1] / "fixtures"
NGRAM = f"ngram:{FIXTURES / 'ngram_triples.tsv'}"


def test_the_pep3k_test_auc_is_one_figure_through_every_door(tmp_path: Path) -> None:
    assert main(["-q", "evaluate", "--model", NGRAM, "--benchmarks", "pep3k", "--output", str(tmp_path)]) == 0
    (command,) = [
        (f["value"], f["low"], f["high"])
        for f in json.loads((tmp_path / "metrics.json").read_text())["figures"]
        if f["split"] == "test"
    ]
    (python,) = [(f.value, f.low, f.high) for f in plausibility.evaluate(NGRAM, benchmarks=["pep3k"]).figures
                 if f.split == "test"]  # fmt: skip
    scorer = build_scorer(NGRAM)
    report = evaluate_scorer(ModelRequest("n-gram", NGRAM), scorer, ReportSettings(), consistency=False)
    halves = scored_halves(scorer)
    export = auc_intervals(figures_of(halves))["pep3k"]["test"]  # what `export` writes into a card
    (test,) = [half for half in halves if half.judged.name == "pep3k" and half.judged.split == "test"]
    lightning = roc_auc(test.labels, test.scores)  # what a run logs as test/auc_pep3k
    for door in (python, tuple(vars(report.auc["pep3k"]["test"]).values()), tuple(vars(export).values())):
        assert tuple(round(value, 6) for value in door) == command  # metrics.json holds 6 decimals
    assert round(lightning, 6) == command[0]


def test_one_event_gets_one_score_from_every_door(tmp_path: Path, capsys) -> None:
    judged = tmp_path / "judged.tsv"
    judged.write_text("subject\tverb\tobject\tlabel\nchildren\teats\tapples\t1\nrocks\teat\tsandwich\t0\n")
    dump = tmp_path / "scores.tsv"
    argv = ["-q", "evaluate", "--model", NGRAM, "--benchmarks", "none", "--data", str(judged), "--dump-scores"]
    assert main([*argv, str(dump), "--output", str(tmp_path / "out")]) == 0
    evaluated = pd.read_csv(dump, sep="\t")["score"].tolist()
    capsys.readouterr()
    assert main(["score", "children", "eats", "apples", "--model", NGRAM, "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    api = plausibility.load_scorer(NGRAM).score([("children", "eats", "apples"), ("rocks", "eat", "sandwich")])
    with TestClient(build_app(load_models([NGRAM]))) as client:
        served = [
            r["score"]
            for r in client.post("/v1/score", json={"triples": [["children", "eats", "apples"]]}).json()["results"]
        ]
    assert (scored["subject_lemma"], scored["verb_lemma"], scored["object_lemma"]) == ("child", "eat", "apple")
    assert evaluated[0] == scored["score"] == api[0] == served[0]
    assert evaluated[1] == api[1] == build_scorer(NGRAM).score([Triple("rock", "eat", "sandwich")])[0]
    as_written = plausibility.evaluate(NGRAM, benchmarks=[], data=[judged], as_given=True).scores()["score"]
    assert as_written[0] == build_scorer(NGRAM).score([Triple("children", "eats", "apples")])[0] != evaluated[0]


def test_lightning_validates_on_the_lemmas_score_scores() -> None:
    (loader,) = PairsDataModule(datasets=("pep3k",)).test_dataloader()
    given = load_plausibility_set("pep3k", "test")
    changed = [i for i, event in enumerate(given) if event.triple.subject == "pebbles"]
    assert changed  # the half writes some nouns in the plural
    validated = [loader.dataset[i][2] for i in changed]
    assert validated == plausibility.load_scorer(NGRAM).as_scored([given[i].triple for i in changed])
    assert all(triple.subject == "pebble" for triple in validated)

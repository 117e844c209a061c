"""The consistency report of one half: its document holds the measured figures and every grid, ends drawn."""

import json
from pathlib import Path

from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.evaluation.consistency_report import ranked_events, write_consistency_report
from plausibility.evaluation.grids import measure_consistency
from plausibility.lexicon.training_lexicon import lexicon_of
from plausibility.scorers.registry import build_scorer


def test_the_document_holds_the_result_and_the_heatmaps_its_ranked_ends(fixtures: Path, tmp_path: Path) -> None:
    spec = f"ngram:{fixtures / 'ngram_triples.tsv'}"
    scorer = build_scorer(spec)
    events = load_plausibility_set("pep3k", "test")[:8]
    result = measure_consistency(scorer, [event.triple for event in events], lexicon_of(scorer.lexicon), progress=False)
    path = write_consistency_report(spec, "pep3k", "test", events, result, tmp_path, heatmaps=1)
    assert path == tmp_path / "consistency.json"
    document = json.loads(path.read_text())
    ranked = ranked_events(result)
    assert [document[key] for key in ("model", "dataset", "split", "events", "events_with_windows")] == [
        spec,
        "pep3k",
        "test",
        8,
        len(ranked),
    ]
    assert (document["ccd"], document["ler"], document["windows"]) == (
        result.concavity_delta,
        result.local_extremum_rate,
        result.n_windows,
    )
    assert [grid["event"] for grid in document["grids"]] == [str(event.triple) for event in events]
    assert [grid["label"] for grid in document["grids"]] == [event.label for event in events]
    ccd = [result.grids[i].concavity_delta for i in ranked]
    assert ccd == sorted(ccd)
    most, least = document["heatmaps"]["most_consistent"], document["heatmaps"]["least_consistent"]
    slug = str(result.grids[ranked[0]].grid.event).replace(" ", "-")
    assert most == [f"heatmaps/most-1-{slug}.png"] and len(least) == 1
    assert (tmp_path / most[0]).is_file() and (tmp_path / least[0]).is_file()

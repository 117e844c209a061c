"""`PlausibilityModule`'s ConceptMax training: which abstractions it scores, on grids of its own WSD choice."""

from collections.abc import Sequence

import numpy as np
import pytest
import torch
from torch import nn

from plausibility.models.abstraction_sampling import sample_cells
from plausibility.models.system import PlausibilityModule
from plausibility.triple import Triple


class TextLogitNet(nn.Module):
    """A logit per triple fixed by its text, so a LogSumExp names the triples it was taken over."""

    def featurize(self, triples: Sequence[Triple]) -> dict[str, torch.Tensor]:
        return {"logits": torch.tensor([_text_logit(t) for t in triples], dtype=torch.float64)}

    def forward(self, logits: torch.Tensor) -> torch.Tensor:
        return logits


def _text_logit(triple: Triple) -> float:
    return float(sum(ord(c) * (i + 1) for i, c in enumerate(str(triple))) % 997) / 100


def test_the_system_scores_the_event_and_the_triples_of_the_drawn_cells() -> None:
    module = PlausibilityModule(net=TextLogitNet(), abstractions=3, seed=5)
    grid = module.lexicon.abstractor.grid(Triple("dentist", "breathe", "helium"))
    cells = sample_cells(grid.shape, 3, np.random.default_rng(5))
    expected = [grid.event, *(Triple(grid.subjects[row].text, "breathe", grid.objects[col].text) for row, col in cells)]
    assert module.sampled_abstractions(grid) == expected
    assert len(set(expected)) == 4


@pytest.mark.integration
def test_training_grids_follow_the_wsd_choice(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    # gloss reads "bat" in "player swing bat" as the club, mfs as the mammal; with more abstractions than
    # cells, training takes the LogSumExp over the whole grid of the chosen senses.
    monkeypatch.setenv("PLAUSIBILITY_CACHE", str(tmp_path))
    event = Triple("player", "swing", "bat")
    logits, objects = {}, {}
    for wsd in ("mfs", "gloss"):
        module = PlausibilityModule(net=TextLogitNet(), abstractions=10_000, wsd=wsd)
        hierarchy = module.lexicon.hierarchy
        sense = {"mfs": "bat.n.01", "gloss": "bat.n.05"}[wsd]
        objects[wsd] = [concept.text for concept in hierarchy.chain(sense) if concept.synset != sense] + ["bat"]
        subjects = [c.text for c in hierarchy.chain("player.n.01") if c.synset != "player.n.01"] + ["player"]
        cells = [Triple(s, "swing", o) for s in subjects for o in objects[wsd]]
        assert module.lexicon.abstractor.grid(event).triples() == cells
        logits[wsd] = module.training_logits([event]).item()
        # float64: torch's logsumexp vs numpy's logaddexp folded over the grid, a few ulps
        assert logits[wsd] == pytest.approx(np.logaddexp.reduce([_text_logit(t) for t in cells]), abs=1e-12)
    assert objects["mfs"] != objects["gloss"] and logits["mfs"] != logits["gloss"]


@pytest.mark.filterwarnings("ignore:You are trying to `self.log\\(\\)`")  # a training step outside a Trainer
def test_the_objective_is_the_bce_of_each_event_against_its_label() -> None:
    from plausibility.models.datamodule import PairBatch

    positives = [Triple("dog", "chase", "cat"), Triple("person", "eat", "apple")]
    negatives = [Triple("theory", "chase", "cat"), Triple("person", "eat", "year")]
    module = PlausibilityModule(net=TextLogitNet())
    loss = module.training_step(PairBatch(positives, negatives), 0).item()
    pos = np.array([_text_logit(t) for t in positives])
    neg = np.array([_text_logit(t) for t in negatives])
    expected = np.mean(np.r_[np.logaddexp(0, -pos), np.logaddexp(0, neg)])
    assert loss == pytest.approx(expected, rel=1e-12)  # float64 BCE with logits vs numpy's logaddexp: a few ulps


@pytest.mark.filterwarnings("ignore:You are trying to `self.log\\(\\)`")  # a training step outside a Trainer
def test_a_teachers_probabilities_replace_the_labels_of_one_and_zero() -> None:
    from plausibility.models.datamodule import PairBatch

    positives = [Triple("dog", "chase", "cat"), Triple("person", "eat", "apple")]
    negatives = [Triple("theory", "chase", "cat"), Triple("person", "eat", "year")]
    targets = ([0.9, 0.25], [0.4, 0.0])
    module = PlausibilityModule(net=TextLogitNet())
    loss = module.training_step(PairBatch(positives, negatives, targets), 0).item()
    logits = np.array([_text_logit(t) for t in positives + negatives])
    labels = np.array(targets[0] + targets[1])
    # BCE against a soft label y: y * softplus(-x) + (1 - y) * softplus(x)
    expected = np.mean(labels * np.logaddexp(0, -logits) + (1 - labels) * np.logaddexp(0, logits))
    assert loss == pytest.approx(expected, rel=1e-12)  # float64 BCE with logits vs numpy's logaddexp: a few ulps

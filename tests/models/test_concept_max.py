"""ConceptMax: LogSumExp over sampled abstractions in training, hard max at inference, dedup == naive."""

from collections.abc import Sequence

import numpy as np
import pytest
import torch
from torch import nn

from plausibility.lexicon.training_lexicon import TrainingLexicon
from plausibility.models.components.classifier import TripleClassifier
from plausibility.models.system import PlausibilityModule
from plausibility.scorers.concept_max import ConceptMax
from plausibility.scorers.net import NetScorer
from plausibility.triple import Triple

EVENTS = [Triple("dentist", "breathe", "helium"), Triple("dog", "eat", "bone"), Triple("chef", "bake", "cookie")]
UNKNOWN = Triple("xyzzy", "eat", "plugh")  # no WordNet noun: a 1 x 1 grid


@pytest.fixture(scope="module")
def lexicon() -> TrainingLexicon:
    return TrainingLexicon()


def _known_logit(triple: Triple) -> float:
    """A fixed, distinct logit per triple (a deterministic function of its text)."""
    return float(sum(ord(c) * (i + 1) for i, c in enumerate(str(triple))) % 997) / 100


class KnownScores:
    """A TripleScorer whose scores are `_known_logit`, counting the triples it is asked for."""

    probability_mapping = "sigmoid of the logit"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        self.calls.append(len(triples))
        return np.array([_known_logit(t) for t in triples])

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-scores))


class KnownLogitNet(nn.Module):
    """A net whose logit for a triple is the trainable parameter initialised at `_known_logit`."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = nn.Parameter(torch.ones(()))

    def featurize(self, triples: Sequence[Triple]) -> dict[str, torch.Tensor]:
        return {"logits": torch.tensor([_known_logit(t) for t in triples], dtype=torch.float64)}

    def forward(self, logits: torch.Tensor) -> torch.Tensor:
        return self.scale * logits


def test_inference_takes_the_hard_max_and_names_its_abstraction(lexicon: TrainingLexicon) -> None:
    results = ConceptMax(KnownScores(), lexicon).explain([*EVENTS, UNKNOWN])
    for event, result in zip([*EVENTS, UNKNOWN], results, strict=True):
        grid = lexicon.abstractor.grid(event).triples()
        best = max(grid, key=_known_logit)
        assert (result.event, result.score, result.abstraction.triple) == (event, _known_logit(best), best)
    assert results[-1].abstraction.triple == UNKNOWN
    assert len(lexicon.abstractor.grid(EVENTS[0]).triples()) > 1


def test_dedup_scores_each_shared_abstraction_once(lexicon: TrainingLexicon) -> None:
    events = [Triple("dentist", "breathe", "helium"), Triple("doctor", "breathe", "helium")]
    unique = {t for e in events for t in lexicon.abstractor.grid(e).triples()}
    total = sum(len(lexicon.abstractor.grid(e).triples()) for e in events)
    dedup, naive = KnownScores(), KnownScores()
    ConceptMax(dedup, lexicon).score(events)
    ConceptMax(naive, lexicon, deduplicate=False).score(events)
    assert dedup.calls == [len(unique)] and len(unique) < total
    assert sum(naive.calls) == total and len(naive.calls) == 2


def test_later_calls_score_only_abstractions_not_seen_before(lexicon: TrainingLexicon) -> None:
    first, second = [Triple("dentist", "breathe", "helium")], [Triple("doctor", "breathe", "helium")]
    seen = set(lexicon.abstractor.grid(first[0]).triples())
    new = set(lexicon.abstractor.grid(second[0]).triples()) - seen
    scorer = KnownScores()
    wrapped = ConceptMax(scorer, lexicon)
    once = wrapped.explain(first)
    assert wrapped.explain(first) == once
    assert wrapped.explain(second) == ConceptMax(KnownScores(), lexicon).explain(second)
    assert scorer.calls == [len(seen), len(new)] and 0 < len(new) < len(seen)


def test_memory_keeps_only_the_latest_abstractions(lexicon: TrainingLexicon) -> None:
    scorer = KnownScores()
    wrapped = ConceptMax(scorer, lexicon, memory=1)
    wrapped.score(EVENTS[:1])
    wrapped.score(EVENTS[:1])
    grid = len(lexicon.abstractor.grid(EVENTS[0]).triples())
    assert scorer.calls == [grid, grid - 1]  # only the last abstraction was remembered


def test_dedup_gives_the_naive_scores_with_a_real_net(roberta_backbone: str, lexicon: TrainingLexicon) -> None:
    scorer = NetScorer(TripleClassifier(backbone=roberta_backbone), batch_size=7)
    dedup = ConceptMax(scorer, lexicon).explain(EVENTS)
    naive = ConceptMax(scorer, lexicon, deduplicate=False).explain(EVENTS)
    # Equal in fact: one NetScorer behind both keeps each cell's logit, so the naive pass reads the same values.
    # Scored afresh in other batches, a float32 logit near -1.1 would move a few ulps (2.4e-7): 1e-5 holds either way.
    assert [r.score for r in dedup] == pytest.approx([r.score for r in naive], abs=1e-5)
    # The tiny model maps unknown words to one token, so abstractions can tie: check the named one reaches the max.
    named = scorer.score([r.abstraction.triple for r in dedup])
    assert named.tolist() == pytest.approx([r.score for r in naive], abs=1e-5)  # as above: kept logits


def test_training_abstractions_start_with_the_event_and_never_repeat(lexicon: TrainingLexicon) -> None:
    grid = lexicon.abstractor.grid(EVENTS[0])
    module = PlausibilityModule(net=KnownLogitNet(), abstractions=3, seed=0)
    drawn = module.sampled_abstractions(grid)
    assert drawn[0] == EVENTS[0] and len(drawn) == 4 and len(set(drawn)) == 4
    assert set(drawn) <= set(grid.triples())
    assert module.sampled_abstractions(lexicon.abstractor.grid(UNKNOWN)) == [UNKNOWN]


def test_training_reduces_the_sampled_logits_with_logsumexp(lexicon: TrainingLexicon) -> None:
    module = PlausibilityModule(net=KnownLogitNet(), abstractions=3, seed=5)
    events = [EVENTS[0], UNKNOWN]
    logits = module.training_logits(events)
    replay = PlausibilityModule(net=KnownLogitNet(), abstractions=3, seed=5)
    expected = []
    for grid in lexicon.abstractor.grids(events):
        drawn = replay.sampled_abstractions(grid)
        expected.append(np.logaddexp.reduce([_known_logit(t) for t in drawn]))
    assert logits.tolist() == pytest.approx(expected, abs=1e-12)  # float64: torch logsumexp vs numpy's, a few ulps
    assert logits[1].item() == pytest.approx(_known_logit(UNKNOWN))  # masked slots add nothing (exp(-inf) is 0)
    logits.sum().backward()
    assert module.net.scale.grad is not None

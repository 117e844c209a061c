from pathlib import Path

import numpy as np
import pytest

from plausibility.minimal_pairs.suite_config import load_suite
from plausibility.minimal_pairs.suite_runner import load_items, run_suite
from plausibility.minimal_pairs.text_scores import score_texts


@pytest.fixture(scope="module")
def offline_scorer():
    from plausibility.lm import load_lm_scorer

    return load_lm_scorer(batch_size=8, device="cpu")


@pytest.mark.integration
def test_lieder_with_the_offline_causal_lm_matches_scores_from_a_file(offline_scorer, fixtures: Path):
    suite = load_suite("lieder", data=fixtures / "minimal_pairs" / "lieder_two_items.jsonl")
    items = load_items(suite)
    from_model, scored = run_suite(suite, scorer=offline_scorer)
    used = scored.scores
    # The scores are log P(continuation | context), one per text id, as the scorer computes them directly.
    texts = [text for item in items for text in item.roles.values()]
    direct = offline_scorer.conditional_logprob([t.context for t in texts], [t.continuation for t in texts])
    # Equal in fact: run_suite sends these texts in this order, so the same batches. The 135M LM's float32 values
    # move by up to ~4e-5 a token only where padding or threads differ.
    np.testing.assert_allclose([used[t.id] for t in texts], direct, atol=1e-4)
    assert all(value < 0 for value in used.values())
    # Feeding the dumped scores back gives the same report.
    from_file, _ = run_suite(suite, scores=used)
    assert from_file.results == from_model.results
    # ... and so does the TextScores a run returns, as a notebook passes it on to a second metric.
    from_returned, _ = run_suite(suite, scores=scored)
    assert from_returned.results == from_model.results
    overall = [row for row in from_model.results if not row.group]
    assert len(overall) == 17
    assert {row.accuracy for row in overall} <= {0.0, 0.5, 1.0}


@pytest.mark.integration
def test_whole_text_scores_are_the_log_probability_of_the_sentence(offline_scorer, fixtures: Path):
    suite = load_suite("blimp", data=fixtures / "minimal_pairs" / "blimp_tiny.jsonl")
    texts = [text for item in load_items(suite) for text in item.roles.values()]
    scores = score_texts(texts, offline_scorer, "text").scores
    expected = [token_logprobs.sum() for token_logprobs in offline_scorer.token_logprobs([t.full for t in texts])]
    # Equal in fact: a whole text is a continuation of "", the same requests in the same batches (see above).
    np.testing.assert_allclose([scores[t.id] for t in texts], expected, atol=1e-4)
    means = score_texts(texts[:1], offline_scorer, "conditional_mean").scores
    whole = offline_scorer.token_logprobs([texts[0].continuation])[0]
    assert means[texts[0].id] == pytest.approx(whole.mean(), abs=1e-4)  # one text alone both ways: equal in fact

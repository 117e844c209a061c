"""What the lever analyses share: the default's member weights, one logistic regression over the valid halves of
Pep-3k, 20Q and plain together, scored out of fold, and a paired interval of a gain in plain accuracy."""

import numpy as np
from sklearn.linear_model import LogisticRegression

SETS = ["pep3k", "20q", "plain"]
# The default's weights over members.py's members, normalised as the ensemble normalises them:
# event:conceptmax, conceptmax, zero-shot:@pmi-passive, ngram.
WEIGHTS = np.array([3, 1, 6, 6]) / 16


def out_of_fold(
    features: dict[str, np.ndarray], labels: dict[str, np.ndarray], plain_weight: float = 1.0
) -> dict[str, np.ndarray]:
    """Each set's decision values from 5 fits that did not see them (event i is in fold i % 5); the plain half's
    events weigh `plain_weight` in the fits."""
    predicted = {d: np.zeros(len(labels[d])) for d in SETS}
    for fold in range(5):
        held = {d: np.arange(len(labels[d])) % 5 == fold for d in SETS}
        weights = [np.full((~held[d]).sum(), plain_weight if d == "plain" else 1.0) for d in SETS]
        fit = LogisticRegression(max_iter=2000).fit(
            np.vstack([features[d][~held[d]] for d in SETS]),
            np.concatenate([labels[d][~held[d]] for d in SETS]),
            sample_weight=np.concatenate(weights),
        )
        for d in SETS:
            predicted[d][held[d]] = fit.decision_function(features[d][held[d]])
    return predicted


def paired_interval(better: np.ndarray, worse: np.ndarray, resamples: int = 2000) -> np.ndarray:
    """95% bootstrap interval of the difference in accuracy, the same events drawn for both."""
    draws = np.random.default_rng(0).integers(0, len(better), (resamples, len(better)))
    differences = better[draws].mean(1) - worse[draws].mean(1)
    return np.round(np.percentile(differences, [2.5, 97.5]), 3)

"""ROC-AUC against hand-computed values and scikit-learn."""

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from plausibility.errors import DataFormatError
from plausibility.metrics import roc_auc


def test_roc_auc_hand_computed_with_a_tie() -> None:
    # Positive/negative score pairs: (0.8 > 0.3), (0.8 > 0.5), (0.5 = 0.5) counts one half, (0.5 > 0.3): 3.5 / 4.
    assert roc_auc([1, 1, 0, 0], [0.8, 0.5, 0.5, 0.3]) == pytest.approx(0.875)  # float64 trapezoids of quarters


def test_roc_auc_equals_sklearn_on_a_toy_set() -> None:
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 2, size=200)
    scores = labels * 0.5 + rng.normal(size=200)
    assert roc_auc(labels, scores) == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)  # exact: sklearn's own


def test_roc_auc_rejects_one_class() -> None:
    with pytest.raises(DataFormatError, match="needs both labels 0 and 1"):
        roc_auc([1, 1], [0.2, 0.4])


def test_roc_auc_rejects_nan_and_length_mismatch() -> None:
    with pytest.raises(DataFormatError, match="NaN or infinity"):
        roc_auc([1, 0], [float("nan"), 0.1])
    with pytest.raises(DataFormatError, match="must be equal 1-d arrays"):
        roc_auc([1, 0, 1], [0.1, 0.2])

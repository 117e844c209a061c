"""Pure metrics over score arrays: ROC-AUC of plausibility scores against human labels."""

from collections.abc import Sequence

import numpy as np
from sklearn.metrics import roc_auc_score

from plausibility.errors import DataFormatError

ROC_AUC_HIGHER_IS_BETTER = True


def roc_auc(y_true: Sequence[int] | np.ndarray, y_score: Sequence[float] | np.ndarray) -> float:
    """Area under the ROC curve of `y_score` against binary `y_true` (1 plausible); ties count one half.

    Raises:
        DataFormatError: the arrays differ in length, a score is not finite, or only one class is present.
    """
    labels = np.asarray(y_true)
    scores = np.asarray(y_score, dtype=np.float64)
    if labels.shape != scores.shape or labels.ndim != 1:
        raise DataFormatError(f"roc_auc: labels {labels.shape} and scores {scores.shape} must be equal 1-d arrays")
    if not np.isfinite(scores).all():
        raise DataFormatError("roc_auc: scores contain NaN or infinity; check the scorer's output")
    if np.unique(labels).size != 2:
        raise DataFormatError("roc_auc: needs both labels 0 and 1 among the events; give a set with both classes")
    return float(roc_auc_score(labels, scores))

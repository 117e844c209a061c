"""Recalibration alone: the default's members and weights unchanged, its Platt map fitted again on the valid halves
with the plain half in the fit. A monotone map leaves every AUC as it is; what moves is which side of .5 each event
falls. Figures for the plain half are out of fold (event i in fold i % 5); Pep-3k and 20Q are fitted on in full.

    python experiments/judgement_benchmarks/levers/recalibrate.py      # after members.py
"""

import numpy as np
from folds import SETS, WEIGHTS
from scipy.special import expit
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss

from plausibility.scorers.calibration import Calibration
from plausibility.scorers.shipped import model_folder

members = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
score = {d: WEIGHTS @ members[d + "/lo"] for d in SETS}
labels = {d: members[d + "/labels"].astype(int) for d in SETS}
kinds = members["plain/kinds"]
shipped = Calibration.load(model_folder("default") / "calibration.json")


def fit(weights: dict[str, float], plain_rows: np.ndarray) -> tuple[float, float]:
    """Slope and intercept fitted on Pep-3k and 20Q valid and the given plain rows, each set's events weighing
    `weights[set]` each."""
    rows = {d: np.ones(len(labels[d]), bool) for d in SETS} | {"plain": plain_rows}
    x = np.concatenate([score[d][rows[d]] for d in SETS])[:, None]
    y = np.concatenate([labels[d][rows[d]] for d in SETS])
    w = np.concatenate([np.full(rows[d].sum(), weights[d]) for d in SETS])
    model = LogisticRegression(C=np.inf, max_iter=1000).fit(x, y, sample_weight=w)
    return float(model.coef_[0, 0]), float(model.intercept_[0])


def report(name: str, probability: dict[str, np.ndarray]) -> None:
    figures = []
    for d in SETS:
        p = probability[d]
        figures.append(f"{d} acc {((p > 0.5) == labels[d]).mean():.3f} loss {log_loss(labels[d], p):.3f}")
    correct = (probability["plain"] > 0.5) == labels["plain"]
    by_kind = {k[:4]: round(float(correct[kinds == k].mean()), 2) for k in sorted(set(kinds))}
    print(f"{name:32s}", " | ".join(figures), by_kind)


report("shipped", {d: shipped.probability(score[d]) for d in SETS})
n = {d: len(labels[d]) for d in SETS}
schemes = {
    "each event once": {d: 1.0 for d in SETS},
    "each set equally": {d: 1000 / n[d] for d in SETS},
    "plain alone": {"pep3k": 1e-9, "20q": 1e-9, "plain": 1.0},
}
for name, weights in schemes.items():
    slope, intercept = fit(weights, np.ones(n["plain"], bool))
    probability = {d: expit(slope * score[d] + intercept) for d in ("pep3k", "20q")}
    plain = np.zeros(n["plain"])
    for fold in range(5):
        held = np.arange(n["plain"]) % 5 == fold
        fold_slope, fold_intercept = fit(weights, ~held)
        plain[held] = expit(fold_slope * score["plain"][held] + fold_intercept)
    probability["plain"] = plain
    report(name, probability)
    print(f"{'':32s} fitted on all: slope {slope:.3f} intercept {intercept:.3f}, crossing {-intercept / slope:.3f}")
print(f"{'':32s} shipped: crossing {shipped.crossing:.3f}")

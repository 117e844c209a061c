"""Logistic regressions over the default's members and each candidate lever, fitted on the valid halves of Pep-3k,
20Q and plain together, each scored by 5-fold cross-validation (valid AUC per set, plain accuracy at 0, by kind).
`python experiments/judgement_benchmarks/levers/analyse.py lex` adds the lexicographer-class scores."""

import sys

import numpy as np

sys.path.insert(0, "experiments/judgement_benchmarks/levers")
from folds import WEIGHTS
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

z = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
names = ["evcm", "cm", "lm", "ng"]
lex = np.load("outputs/judgement_levers/lex.npz") if len(sys.argv) > 1 else None


def feats(d, which):
    lo, rev = z[d + "/lo"], z[d + "/rev"]
    cols = {"base": WEIGHTS @ lo}
    for i, n in enumerate(names):
        cols[n] = lo[i]
        cols["c_" + n] = lo[i] - rev[i]
    if lex is not None:
        cols["lexs"] = lex[d][:, 0]
        cols["lexo"] = lex[d][:, 1]
        cols["lex"] = lex[d].sum(1)
    return np.column_stack([cols[w] for w in which])


sets = ["pep3k", "20q", "plain"]
y = {d: z[d + "/labels"] for d in sets}
kinds = z["plain/kinds"]


def cv(which, C=1.0, plain_weight=1.0):
    X = {d: feats(d, which) for d in sets}
    pred = {d: np.zeros(len(y[d])) for d in sets}
    for fold in range(5):
        tr_X, tr_y, tr_w = [], [], []
        for d in sets:
            idx = np.arange(len(y[d]))
            test = idx % 5 == fold
            tr_X.append(X[d][~test])
            tr_y.append(y[d][~test])
            tr_w.append(np.full((~test).sum(), plain_weight if d == "plain" else 1.0))
        m = LogisticRegression(C=C, max_iter=1000).fit(
            np.vstack(tr_X), np.concatenate(tr_y), sample_weight=np.concatenate(tr_w)
        )
        for d in sets:
            idx = np.arange(len(y[d]))
            test = idx % 5 == fold
            pred[d][test] = m.decision_function(X[d][test])
    m = LogisticRegression(C=C, max_iter=1000).fit(
        np.vstack([X[d] for d in sets]), np.concatenate([y[d] for d in sets])
    )
    res = {d: round(roc_auc_score(y[d], pred[d]), 3) for d in sets}
    res["plain_acc"] = round(float(((pred["plain"] > 0) == y["plain"]).mean()), 3)
    res["kinds"] = {
        k[:4]: round(float(((pred["plain"] > 0) == y["plain"])[kinds == k].mean()), 2) for k in sorted(set(kinds))
    }
    return res, np.round(m.coef_[0], 2)


for which in [
    ["base"],
    names,
    ["base", "c_ng"],
    ["base", "c_evcm"],
    ["base", "c_cm"],
    ["base", "c_lm"],
    ["base", "c_ng", "c_evcm", "c_cm"],
    names + ["c_ng", "c_evcm", "c_cm"],
    names + ["c_ng", "c_evcm", "c_cm", "c_lm"],
] + (
    [
        ["base", "lex"],
        ["base", "lexs", "lexo"],
        names + ["lexs", "lexo"],
        names + ["c_ng", "c_evcm", "c_cm", "lexs", "lexo"],
        ["base", "c_ng", "c_evcm", "c_cm", "lexs", "lexo"],
    ]
    if lex is not None
    else []
):
    for pw in (1.0, 10.0):
        r, coef = cv(which, plain_weight=pw)
        print(pw, "+".join(which), r, coef)

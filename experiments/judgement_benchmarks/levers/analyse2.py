"""As `analyse.py`, for the parts of the LM's role-reversal contrast (`lmparts.npz`)."""

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

z = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
q = np.load("outputs/judgement_levers/lmparts.npz")
W = np.array([3, 1, 6, 6]) / 16
sets = ["pep3k", "20q", "plain"]
y = {d: z[d + "/labels"] for d in sets}
kinds = z["plain/kinds"]


def cols(d):
    lo = z[d + "/lo"]

    def g(t, k):
        return q[f"{d}/{t}/{k}"]

    def pmi(t):
        return g(t, "active") - g(t, "subj") - g(t, "obj")

    def pp(t):
        return pmi(t) + g(t, "passive") - g(t, "subj")

    return {
        "base": W @ lo,
        "evcm": lo[0],
        "cm": lo[1],
        "lm": lo[2],
        "ng": lo[3],
        "c_pp": pp("fwd") - pp("rev"),
        "c_act": g("fwd", "active") - g("rev", "active"),
        "c_pas": (g("fwd", "passive") - g("fwd", "subj")) - (g("rev", "passive") - g("rev", "subj")),
        "rev_act": -(g("rev", "active") - g("rev", "subj") - g("rev", "obj")),
        "rev_pas": -(g("rev", "passive") - g("rev", "subj")),
    }


C = {d: cols(d) for d in sets}


def cv(which, pw=1.0):
    X = {d: np.column_stack([C[d][w] for w in which]) for d in sets}
    pred = {d: np.zeros(len(y[d])) for d in sets}
    for fold in range(5):
        sel = {d: (np.arange(len(y[d])) % 5 == fold) for d in sets}
        m = LogisticRegression(max_iter=2000).fit(
            np.vstack([X[d][~sel[d]] for d in sets]),
            np.concatenate([y[d][~sel[d]] for d in sets]),
            sample_weight=np.concatenate([np.full((~sel[d]).sum(), pw if d == "plain" else 1.0) for d in sets]),
        )
        for d in sets:
            pred[d][sel[d]] = m.decision_function(X[d][sel[d]])
    m = LogisticRegression(max_iter=2000).fit(np.vstack([X[d] for d in sets]), np.concatenate([y[d] for d in sets]))
    r = {d: round(roc_auc_score(y[d], pred[d]), 3) for d in sets}
    ok = (pred["plain"] > 0) == y["plain"]
    r["acc"] = round(float(ok.mean()), 3)
    r["kinds"] = {k[:4]: round(float(ok[kinds == k].mean()), 2) for k in sorted(set(kinds))}
    return r, np.round(m.coef_[0], 2)


for which in (
    ["base"],
    ["base", "c_pp"],
    ["base", "c_act"],
    ["base", "c_pas"],
    ["base", "rev_act"],
    ["base", "rev_pas"],
    ["base", "c_act", "c_pas"],
    ["evcm", "cm", "lm", "ng", "c_pp"],
    ["evcm", "cm", "lm", "ng", "c_act", "c_pas"],
):
    for pw in (1.0, 5.0):
        print(pw, "+".join(which), *cv(which, pw))

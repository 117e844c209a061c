"""As `analyse.py`, for the parts of the LM's role-reversal contrast (`lmparts.npz`).

`analyse2.py LM` adds another LM's parts (`lmparts-LM.npz`, written by `lmparts.py LM`): its `@pmi-passive` score
of the event as a fifth member (`big`) and its reversal contrast (`big_c_pp`)."""

import sys

import numpy as np
from folds import SETS, WEIGHTS, out_of_fold, paired_interval
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

z = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
q = np.load("outputs/judgement_levers/lmparts.npz")
big = np.load(f"outputs/judgement_levers/lmparts-{sys.argv[1].replace('/', '_')}.npz") if len(sys.argv) > 1 else None
sets = SETS
y = {d: z[d + "/labels"] for d in sets}
kinds = z["plain/kinds"]


def cols(d):
    lo = z[d + "/lo"]

    def parts(source):
        def g(t, k):
            return source[f"{d}/{t}/{k}"]

        def pp(t):
            return g(t, "active") - g(t, "subj") - g(t, "obj") + g(t, "passive") - g(t, "subj")

        return g, pp

    g, pp = parts(q)
    larger = {}
    if big is not None:
        _, big_pp = parts(big)
        larger = {"big": big_pp("fwd"), "big_c_pp": big_pp("fwd") - big_pp("rev")}
    return larger | {
        "base": WEIGHTS @ lo,
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
    pred = out_of_fold(X, y, pw)
    m = LogisticRegression(max_iter=2000).fit(np.vstack([X[d] for d in sets]), np.concatenate([y[d] for d in sets]))
    r = {d: round(roc_auc_score(y[d], pred[d]), 3) for d in sets}
    ok = (pred["plain"] > 0) == y["plain"]
    r["acc"] = round(float(ok.mean()), 3)
    r["kinds"] = {k[:4]: round(float(ok[kinds == k].mean()), 2) for k in sorted(set(kinds))}
    r["plain_correct"] = ok
    return r, np.round(m.coef_[0], 2)


combinations = [
    ["base"],
    ["base", "c_pp"],
    ["base", "c_act"],
    ["base", "c_pas"],
    ["base", "rev_act"],
    ["base", "rev_pas"],
    ["base", "c_act", "c_pas"],
    ["evcm", "cm", "lm", "ng", "c_pp"],
    ["evcm", "cm", "lm", "ng", "c_act", "c_pas"],
]
if big is not None:
    for d in sets:
        print(d, "larger LM alone, valid AUC", round(roc_auc_score(y[d], C[d]["big"]), 3))
    combinations = [
        ["base"],
        ["base", "c_pp"],
        ["base", "big"],
        ["base", "big_c_pp"],
        ["base", "big", "big_c_pp"],
        ["base", "c_pp", "big", "big_c_pp"],
        ["evcm", "cm", "lm", "ng", "big"],
        ["evcm", "cm", "ng", "big"],
    ]
baseline = cv(["base"])[0]["plain_correct"]
for which in combinations:
    for pw in (1.0, 5.0):
        figures, weights = cv(which, pw)
        correct = figures.pop("plain_correct")
        print(pw, "+".join(which), figures, weights)
        if big is not None and which != ["base"] and pw == 1.0:
            print("   plain accuracy against the default's, 95% paired interval:", paired_interval(correct, baseline))

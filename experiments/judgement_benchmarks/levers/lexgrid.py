"""The lexicographer-class score alone on the plain valid half, over a grid of sense decay and smoothing."""

import sys
import time

import pandas as pd

sys.path.insert(0, "experiments/judgement_benchmarks/levers")
from lexclass import LexClass
from sklearn.metrics import roc_auc_score

tr = pd.read_parquet("data/training/triples.parquet")
p = pd.read_csv("data/evaluation/plain/valid.tsv", sep="\t", keep_default_na=False)
ev = list(zip(p.subject, p.verb, p.object, strict=False))
for decay in (0.3, 0.6, 1.0):
    for alpha in (1.0, 5.0, 20.0):
        t = time.time()
        lc = LexClass(tr, decay, alpha)
        f = lc.score(ev)
        s = f.sum(1)
        print(
            decay,
            alpha,
            "auc",
            round(roc_auc_score(p.label, s), 3),
            "subj",
            round(roc_auc_score(p.label, f[:, 0]), 3),
            "per kind mean",
            {k: round(float(s[p.kind == k].mean()), 2) for k in sorted(set(p.kind))},
            round(time.time() - t),
            flush=True,
        )

"""The lexicographer-class scores of subject and object for every valid event (`outputs/judgement_levers/lex.npz`):
`python experiments/judgement_benchmarks/levers/lexfeat.py DECAY ALPHA` (the study used 0.6 5)."""

import os
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, "experiments/judgement_benchmarks/levers")
from lexclass import LexClass

from plausibility.benchmarks.datasets import load_plausibility_set

decay, alpha = float(sys.argv[1]), float(sys.argv[2])
tr = pd.read_parquet("data/training/triples.parquet")
lc = LexClass(tr, decay, alpha)
out = {}
for d in ("pep3k", "20q"):
    out[d] = lc.score([(e.triple.subject, e.triple.verb, e.triple.object) for e in load_plausibility_set(d, "valid")])
p = pd.read_csv("data/evaluation/plain/valid.tsv", sep="\t", keep_default_na=False)
out["plain"] = lc.score(list(zip(p.subject, p.verb, p.object, strict=False)))
os.makedirs("outputs/judgement_levers", exist_ok=True)
np.savez("outputs/judgement_levers/lex.npz", **out)

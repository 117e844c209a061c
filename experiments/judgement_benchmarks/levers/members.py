"""Each member of the default, as calibrated log-odds, on every valid event and on its role reversal
(`outputs/judgement_levers/members.npz`). Run from the repository root; about 6 min on 2 cores."""

import os
import time

import numpy as np
import pandas as pd

from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.scorers.registry import build_scorer
from plausibility.triple import Triple

sets = {}
for d in ("pep3k", "20q"):
    ev = load_plausibility_set(d, "valid")
    sets[d] = ([e.triple for e in ev], np.array([e.label for e in ev]), None)
p = pd.read_csv("data/evaluation/plain/valid.tsv", sep="\t", keep_default_na=False)
sets["plain"] = (
    [Triple(s, v, o) for s, v, o in zip(p.subject, p.verb, p.object, strict=False)],
    p.label.to_numpy(),
    p.kind.to_numpy(),
)
ens = build_scorer("uncalibrated:ensemble:3*event:conceptmax+conceptmax+6*zero-shot:@pmi-passive+6*ngram")
out = {}
for name, (triples, labels, kinds) in sets.items():
    t = time.time()
    rev = [Triple(x.object, x.verb, x.subject) for x in triples]
    out[name + "/lo"] = ens.member_log_odds(triples)
    out[name + "/rev"] = ens.member_log_odds(rev)
    out[name + "/labels"] = labels
    out[name + "/events"] = np.array([f"{x.subject} {x.verb} {x.object}" for x in triples])
    if kinds is not None:
        out[name + "/kinds"] = kinds
    print(name, len(triples), time.time() - t, flush=True)
os.makedirs("outputs/judgement_levers", exist_ok=True)
np.savez("outputs/judgement_levers/members.npz", **out)

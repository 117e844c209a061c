"""The offline LM's parts of `zero-shot:@pmi-passive` (active sentence, both noun phrases, the passive's subject),
for every valid event and its role reversal (`outputs/judgement_levers/lmparts.npz`); about 5 min on 2 cores.

`lmparts.py LM` reads another causal LM instead (an offline name such as `gemma-3-270m`, or any Hugging Face id)
and writes `lmparts-LM.npz`."""

import os
import sys
import time

import numpy as np
import pandas as pd

from plausibility.baselines.realise import noun_phrase, passive_opening, realise
from plausibility.baselines.zero_shot import score_distinct
from plausibility.benchmarks.datasets import load_plausibility_set
from plausibility.lm import load_lm_scorer
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM
from plausibility.triple import Triple

name = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_CAUSAL_LM
lm = load_lm_scorer(name, batch_size=32)
sets = {d: [e.triple for e in load_plausibility_set(d, "valid")] for d in ("pep3k", "20q")}
p = pd.read_csv("data/evaluation/plain/valid.tsv", sep="\t", keep_default_na=False)
sets["plain"] = [Triple(s, v, o) for s, v, o in zip(p.subject, p.verb, p.object, strict=False)]
out = {}
for d, ts in sets.items():
    t = time.time()
    for tag, tr in (("fwd", ts), ("rev", [Triple(x.object, x.verb, x.subject) for x in ts])):
        out[f"{d}/{tag}/active"] = score_distinct([realise(x).text for x in tr], lm.text_logprob)
        out[f"{d}/{tag}/subj"] = score_distinct([noun_phrase(x.subject) for x in tr], lm.text_logprob)
        out[f"{d}/{tag}/obj"] = score_distinct([noun_phrase(x.object) for x in tr], lm.text_logprob)
        pas = [(passive_opening(x), f"{x.subject}.") for x in tr]
        out[f"{d}/{tag}/passive"] = score_distinct(
            pas, lambda ps: lm.conditional_logprob([a for a, _ in ps], [b for _, b in ps])
        )
    print(d, time.time() - t, flush=True)
os.makedirs("outputs/judgement_levers", exist_ok=True)
suffix = "" if name == DEFAULT_CAUSAL_LM else "-" + name.replace("/", "_")
np.savez(f"outputs/judgement_levers/lmparts{suffix}.npz", **out)

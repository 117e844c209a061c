"""Selectional restrictions over WordNet's lexicographer classes, counted by slot from the bundled triples.

A noun's senses share its occurrence (sense k weighted `decay**k`); `P(class | verb, slot)` is smoothed towards
the slot's `P(class)` with `alpha` pseudo-counts; a slot scores `log sum_c share(n, c) P(c | v, slot) / P(c | slot)`.
"""

from collections import defaultdict
from functools import cache

import numpy as np

from plausibility.resources.wordnet import load_wordnet

wn = load_wordnet()


@cache
def senses(noun, decay):
    syns = wn.synsets(noun, pos="n")
    if not syns:
        return {}
    w = defaultdict(float)
    weights = [decay**k for k in range(len(syns))]
    tot = sum(weights)
    for s, x in zip(syns, weights, strict=False):
        w[s.lexname()] += x / tot
    return dict(w)


class LexClass:
    def __init__(self, triples, decay=0.5, alpha=5.0):
        self.decay, self.alpha = decay, alpha
        self.counts = {r: defaultdict(lambda: defaultdict(float)) for r in ("subject", "object")}
        prior = {r: defaultdict(float) for r in ("subject", "object")}
        for s, v, o, c in triples.itertuples(index=False):
            for r, n in (("subject", s), ("object", o)):
                for cls, x in senses(n, decay).items():
                    self.counts[r][v][cls] += c * x
                    prior[r][cls] += c * x
        self.prior = {}
        for r in prior:
            tot = sum(prior[r].values())
            self.prior[r] = {k: x / tot for k, x in prior[r].items()}
        self.totals = {r: {v: sum(d.values()) for v, d in self.counts[r].items()} for r in self.counts}

    def slot(self, r, v, n):
        sn = senses(n, self.decay)
        if not sn or v not in self.counts[r]:
            return 0.0
        row, tot = self.counts[r][v], self.totals[r][v]
        ratio = 0.0
        for cls, x in sn.items():
            pc = self.prior[r].get(cls, 1e-6)
            ratio += x * (row.get(cls, 0.0) + self.alpha * pc) / (tot + self.alpha) / pc
        return float(np.log(ratio))

    def score(self, triples):
        return np.array([[self.slot("subject", t[1], t[0]), self.slot("object", t[1], t[2])] for t in triples])

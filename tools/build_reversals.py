"""Writes `data/evaluation/reversals/{valid,test}.tsv`: role-reversal pairs from the bundled training triples.

A pair is an attested event whose subject and object are both a person or an animal (the lexicographer class
of the noun's first WordNet sense: `noun.person`, `noun.animal`) and differ, beside its reversal (`the nanny
tutored the boy` / `the boy tutored the nanny`): the attested order is read as the plausible one (label 1),
the reversal as the implausible one (label 0). A pair is left out when its reversal is attested too, when its
verb is attested both ways with any pair of animate nouns (`marry`, `meet`: a symmetric verb), or when its verb
is one of `LIGHT_VERBS`, whose roles say little. The pairs are silver: the corpus attests an order, it does
not rule the other out, and a model trained on these triples has seen the attested order. Each pair goes to
`valid` or `test` by a hash of its attested event, so the halves never change with the other pairs.

    .venv/bin/python tools/build_reversals.py
"""

import argparse
import hashlib
from pathlib import Path

import pandas as pd

from plausibility.atomic import atomic_write
from plausibility.resources.wordnet import load_wordnet

DATA = Path(__file__).parents[1] / "data"
ANIMATE = ("noun.person", "noun.animal")
# Verbs whose subject and object can trade places without a change in plausibility, or that carry no roles.
LIGHT_VERBS = frozenset(
    "have include make take get give become contain feature represent resemble meet join face accompany know "
    "see marry replace succeed precede follow outnumber match equal involve".split()
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    wordnet = load_wordnet()
    triples = pd.read_parquet(DATA / "training" / "triples.parquet")

    def animate(word: str) -> bool:
        senses = wordnet.synsets(word, pos="n")
        return bool(senses) and senses[0].lexname() in ANIMATE

    nouns = set(triples["subject"]) | set(triples["object"])
    living = {word for word in nouns if animate(word)}
    both = triples[triples["subject"].isin(living) & triples["object"].isin(living)]
    both = both[both["subject"] != both["object"]]
    attested = set(zip(both["subject"], both["verb"], both["object"], strict=True))
    two_way = {verb for subject, verb, obj in attested if (obj, verb, subject) in attested}
    rows = []
    for subject, verb, obj, count in both[["subject", "verb", "object", "count"]].itertuples(index=False):
        if (obj, verb, subject) in attested or verb in two_way or verb in LIGHT_VERBS:
            continue
        pair = f"{subject}|{verb}|{obj}"
        half = "valid" if int(hashlib.sha256(pair.encode()).hexdigest(), 16) % 2 == 0 else "test"
        rows.append((half, pair, subject, verb, obj, 1, count))
        rows.append((half, pair, obj, verb, subject, 0, 0))
    table = pd.DataFrame(rows, columns=["half", "pair", "subject", "verb", "object", "label", "count"])
    folder = DATA / "evaluation" / "reversals"
    for half, rows_of_half in table.groupby("half"):
        rows_of_half = rows_of_half.drop(columns="half").sort_values(["pair", "label"], ascending=[True, False])
        atomic_write(folder / f"{half}.tsv", lambda handle, t=rows_of_half: t.to_csv(handle, sep="\t", index=False))
        print(f"{half}: {len(rows_of_half) // 2} pairs")
    print(f"verbs attested both ways, left out: {', '.join(sorted(two_way))}")


if __name__ == "__main__":
    main()

"""Writes `data/evaluation/pap/test.tsv`, the PAP events as lemma triples with their judgements, from PAP's
`dataset.tsv` (vendored beside it, unchanged).

PAP writes its events inflected ("ability means mobility"); every other set here, and every model, reads lemmas,
so each event is split into its three words, the verb taken to its lemma by lemminflect and each noun by
WordNet, as `plausibility score` lemmatises a query. Columns: subject, verb, object; `label` (the event's
`original_label` as built: plausible 1, implausible 0); `rating` (the mean of its annotators' 1-5 ratings);
`agreed_label` (`majority_binary`: 1 or 0 where at least 70 % of annotators agreed, empty where they did not);
`abstractness_combination` (c, m or a for the subject, verb and object: concrete, mixed, abstract); `event` as
PAP writes it.

    .venv/bin/python tools/vendor_pap.py [data/evaluation/pap/dataset.tsv]
"""

import argparse
import ast
from pathlib import Path

import pandas as pd

from plausibility.atomic import atomic_write
from plausibility.lexicon.event_lemmas import EventLemmas
from plausibility.lexicon.training_lexicon import bundled_lexicon
from plausibility.triple import Triple

FOLDER = Path(__file__).parents[1] / "data" / "evaluation" / "pap"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", type=Path, default=FOLDER / "dataset.tsv", help="PAP's dataset.tsv")
    args = parser.parse_args()
    source = pd.read_csv(args.source, sep="\t", dtype=str, keep_default_na=False)
    words = source["event"].str.split()
    if (bad := words.map(len) != 3).any():
        raise SystemExit(f"{args.source}: events not of three words: {source['event'][bad].tolist()[:5]}")
    given = [Triple(*w) for w in words]
    lemmas = EventLemmas(bundled_lexicon().hierarchy)(given)
    table = pd.DataFrame(
        {
            "subject": [t.subject for t in lemmas],
            "verb": [t.verb for t in lemmas],
            "object": [t.object for t in lemmas],
            "label": source["original_label"].map({"plausible": 1, "implausible": 0}),
            "rating": [sum(r) / len(r) for r in source["rating"].map(ast.literal_eval)],
            "agreed_label": source["majority_binary"].replace("unsure", ""),
            "abstractness_combination": source["abstractness_combination"],
            "event": source["event"],
        }
    )
    if table["label"].isna().any():
        raise SystemExit(f"{args.source}: an original_label other than plausible or implausible")
    atomic_write(FOLDER / "test.tsv", lambda handle: table.to_csv(handle, sep="\t", index=False, float_format="%.4f"))
    changed = sum(a != b for a, b in zip(given, lemmas, strict=True))
    print(f"wrote {FOLDER / 'test.tsv'}: {len(table)} events, {changed} lemmatised")


if __name__ == "__main__":
    main()

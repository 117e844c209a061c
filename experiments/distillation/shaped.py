"""Teacher events shaped like the judged sets' negatives: each of N attested events of the 48,000-pair draw with its
roles reversed (`o v s`, as the plain set's role reversals), its subject swapped across animacy (a person or
animal for an inanimate subject and the reverse, as the plain set's animacy events), and one argument raised to its
WordNet hypernym (an abstraction, of the kind ConceptMax's grids hold).

    python experiments/distillation/shaped.py events N   # shaped-N.parquet (every shaped event, with the event it
                                                         # was made from) and events-shaped-N.parquet (those to score)
    plausibility score --input outputs/distillation/events-shaped-N.parquet \
        --output outputs/distillation/scored-shaped-N.parquet -q
    python experiments/distillation/shaped.py pairs N    # pairs-48000-shaped-N.parquet: the 48,000 pairs and one
                                                         # more per shaped event, against its attested event

Senses are each noun's first (most frequent) WordNet sense, chains the product's (`Hierarchy`, without the training
vocabulary's filter, so a hypernym may be a word the bundled pairs lack). No event of a judged set is made; an event
the teacher has scored already is not scored again. A few shaped events (96 of 20,652) are also events of the draw.
"""

import hashlib
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judgement_benchmarks" / "levers"))
from hardneg import judged_events  # noqa: E402
from teacher_set import EVENT, NEGATIVE, OUT, drawn_pairs, scored_events, teacher_probabilities, with_targets  # noqa: E402

from plausibility.lexicon.hierarchy import Hierarchy  # noqa: E402
from plausibility.resources.wordnet import load_wordnet  # noqa: E402

DRAW = 48_000
ANIMATE = {"noun.person", "noun.animal"}
INANIMATE = {"noun.artifact", "noun.object", "noun.food", "noun.substance", "noun.plant"}


def lexicographer_class(hierarchy: Hierarchy, noun: str) -> str | None:
    """WordNet's lexicographer file of the noun's first sense (`noun.person`, `noun.artifact`...)."""
    senses = hierarchy.senses(noun)
    return load_wordnet().synset(senses[0]).lexname() if senses else None


def hypernym(hierarchy: Hierarchy, noun: str) -> str | None:
    """The word for the concept just above the noun's first sense in its chain (the product's chains: shortest
    path from the root, nothing shallower than depth 4), if it is one word and not the noun."""
    senses = hierarchy.senses(noun)
    chain = hierarchy.chain(senses[0]) if senses else ()
    if len(chain) < 2 or chain[-1].synset != senses[0]:
        return None
    word = chain[-2].text
    return word if " " not in word and word != noun else None


def shaped_events(size: int) -> pd.DataFrame:
    """(source subject, verb, object, shaped subject, verb, object, kind) for `size` attested events."""
    attested = drawn_pairs(DRAW)[EVENT].drop_duplicates().reset_index(drop=True)
    rng = np.random.default_rng(0)
    sources = attested.iloc[np.sort(rng.choice(len(attested), size=size, replace=False))]
    nouns = sorted(set(attested.subject) | set(attested.object))
    hierarchy = Hierarchy.load()
    lexname = {noun: lexicographer_class(hierarchy, noun) for noun in nouns}
    animate = [noun for noun in nouns if lexname.get(noun) in ANIMATE]
    inanimate = [noun for noun in nouns if lexname.get(noun) in INANIMATE]
    rows = []
    for s, v, o in sources.itertuples(index=False, name=None):
        rows.append((s, v, o, o, v, s, "role_reversal"))
        if lexname.get(s) in ANIMATE | INANIMATE:
            pool = inanimate if lexname[s] in ANIMATE else animate
            rows.append((s, v, o, pool[rng.integers(len(pool))], v, o, "animacy"))
        raise_subject = rng.random() < 0.5
        raised = hypernym(hierarchy, s if raise_subject else o)
        if raised:
            rows.append((s, v, o, *((raised, v, o) if raise_subject else (s, v, raised)), "abstraction"))
    table = pd.DataFrame(rows, columns=[*EVENT, *NEGATIVE, "kind"])
    judged = judged_events()
    made = table[NEGATIVE].itertuples(index=False, name=None)
    keep = [event not in judged and event[0] != event[2] for event in made]
    return table[keep].drop_duplicates(NEGATIVE).reset_index(drop=True)


def events(size: int) -> None:
    """The shaped events, kept for `pairs`, and those the teacher has not scored yet, to score with `plausibility
    score --input`."""
    shaped = shaped_events(size)
    shaped.to_parquet(OUT / f"shaped-{size}.parquet", index=False)
    done = set(scored_events()[EVENT].itertuples(index=False, name=None))
    new = shaped[NEGATIVE].set_axis(EVENT, axis=1)
    new = new[[event not in done for event in new.itertuples(index=False, name=None)]]
    path = OUT / f"events-shaped-{size}.parquet"
    new.to_parquet(path, index=False)
    kinds = shaped.kind.value_counts().to_dict()
    print(f"{path}: {len(new):,} events to score, of {len(shaped):,} shaped from {size:,} attested events {kinds}")


def pairs(size: int) -> None:
    """The draw's pairs and one more per shaped event, against the attested event it was made from."""
    shaped = with_targets(pd.read_parquet(OUT / f"shaped-{size}.parquet").drop(columns="kind"), teacher_probabilities())
    table = pd.concat([pd.read_parquet(OUT / f"pairs-{DRAW}.parquet"), shaped], ignore_index=True)
    path = OUT / f"pairs-{DRAW}-shaped-{size}.parquet"
    table.to_parquet(path, index=False)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    print(f"{path}: {len(table):,} pairs ({len(shaped):,} shaped); sha256 {digest}")
    print(f"the teacher's mean probability of the shaped events: {shaped.negative_target.mean():.3f}")


if __name__ == "__main__":
    command, size = sys.argv[1], int(sys.argv[2])
    if command == "events":
        events(size)
    elif command == "pairs":
        pairs(size)
    else:
        sys.exit(f"shaped.py: command {command!r} is events or pairs")

"""The teacher set of a distilled default: a seeded draw of the bundled training pairs, each event scored by the
default, joined back as a pairs file whose `target` / `negative_target` columns are the default's probabilities.

    python experiments/distillation/teacher_set.py events N      # outputs/distillation/events-N.parquet
    plausibility score --input outputs/distillation/events-N.parquet \
        --output outputs/distillation/scored-N.parquet -q            # the default; about 35 events a second
    python experiments/distillation/teacher_set.py pairs N       # outputs/distillation/pairs-N.parquet, its sha256
    python experiments/distillation/teacher_set.py mixed N SHARE # pairs-N-mixed-SHARE.parquet: each target is
                                                                 # SHARE of the teacher's and the rest 1 or 0

`events N` leaves out the events an earlier draw's `scored-*.parquet` holds, so a larger draw scores only what is
new; `pairs N` reads every scored file.

Run from the repository root. No event of a judged set (any half of Pep-3k, 20Q, PAP, plain, `reversals`) is
drawn, so the student never learns the teacher's verdict on an event it is measured on.
"""

import hashlib
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judgement_benchmarks" / "levers"))
from hardneg import judged_events  # noqa: E402

OUT = Path("outputs/distillation")
EVENT = ["subject", "verb", "object"]
NEGATIVE = ["negative_subject", "negative_verb", "negative_object"]


def drawn_pairs(size: int) -> pd.DataFrame:
    pairs = pd.read_parquet("data/training/pairs.parquet")
    judged = judged_events()
    keep = [
        (s, v, o) not in judged and (ns, nv, no) not in judged
        for s, v, o, ns, nv, no in pairs[EVENT + NEGATIVE].itertuples(index=False, name=None)
    ]
    pairs = pairs[keep].reset_index(drop=True)
    rows = np.sort(np.random.default_rng(0).choice(len(pairs), size=size, replace=False))
    return pairs.iloc[rows].reset_index(drop=True)


def scored_events() -> pd.DataFrame:
    """Every event the teacher has scored so far, from any draw."""
    tables = [pd.read_parquet(path) for path in sorted(OUT.glob("scored-*.parquet"))]
    return pd.concat(tables).drop_duplicates(EVENT) if tables else pd.DataFrame(columns=[*EVENT, "probability"])


def with_targets(pairs: pd.DataFrame, probability: dict[tuple[str, str, str], float]) -> pd.DataFrame:
    """The pairs with the `target` / `negative_target` columns training reads: each event's probability."""
    pairs["target"] = [probability[event] for event in map(tuple, pairs[EVENT].to_numpy())]
    pairs["negative_target"] = [probability[event] for event in map(tuple, pairs[NEGATIVE].to_numpy())]
    return pairs


def teacher_probabilities() -> dict[tuple[str, str, str], float]:
    """The default's probability of every event it has scored."""
    scored = scored_events()
    return dict(zip(map(tuple, scored[EVENT].to_numpy()), scored["probability"], strict=True))


def events(size: int) -> None:
    pairs = drawn_pairs(size)
    both = pd.concat([pairs[EVENT], pairs[NEGATIVE].set_axis(EVENT, axis=1)]).drop_duplicates()
    done = set(scored_events()[EVENT].itertuples(index=False, name=None))
    new = both[[event not in done for event in both.itertuples(index=False, name=None)]]
    OUT.mkdir(parents=True, exist_ok=True)
    new.to_parquet(OUT / f"events-{size}.parquet", index=False)
    print(f"{OUT}/events-{size}.parquet: {len(new):,} events to score, of {len(both):,} distinct in {size:,} pairs")


def scored_pairs(size: int) -> None:
    pairs = with_targets(drawn_pairs(size), teacher_probabilities())
    path = OUT / f"pairs-{size}.parquet"
    pairs.to_parquet(path, index=False)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    print(f"{path}: {len(pairs):,} pairs; sha256 {digest}")
    means = pairs.target.mean(), pairs.negative_target.mean()
    print("the teacher's mean probability: attested {:.3f}, negatives {:.3f}".format(*means))


def mixed_pairs(size: int, share: float) -> None:
    """The teacher's probabilities mixed with the pair's own labels: attested 1, pseudo-negative 0."""
    pairs = pd.read_parquet(OUT / f"pairs-{size}.parquet")
    pairs["target"] = share * pairs.target + (1 - share)
    pairs["negative_target"] = share * pairs.negative_target
    path = OUT / f"pairs-{size}-mixed-{share}.parquet"
    pairs.to_parquet(path, index=False)
    print(f"{path}: {len(pairs):,} pairs, targets {share} the teacher's")


if __name__ == "__main__":
    command, size = sys.argv[1], int(sys.argv[2])
    if command == "events":
        events(size)
    elif command == "pairs":
        scored_pairs(size)
    elif command == "mixed":
        mixed_pairs(size, float(sys.argv[3]))
    else:
        sys.exit(f"teacher_set.py: command {command!r} is events, pairs or mixed")

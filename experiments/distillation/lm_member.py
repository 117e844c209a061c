"""A student of the default's language model alone: the default's fast members (its ConceptMax net, read twice,
and the n-gram counts) stay as they are, and only the zero-shot LM, almost all of its time, is replaced by a net
that learnt that member's log-odds on the teacher's events.

    python experiments/distillation/lm_member.py derive      # outputs/distillation/lm-member.parquet
    python experiments/distillation/lm_member.py check 200   # derived against the LM's own, on 200 events
    python experiments/distillation/lm_member.py pairs FILE  # FILE's pairs, targets the LM member's probabilities
    python experiments/distillation/lm_member.py agreement SCORES.tsv  # a student's valid scores against the LM's

The teacher's score of an event is the weighted mean of its four members' calibrated log-odds, so the LM's
follows from the other three: `(16 * score - 3 * event:conceptmax - conceptmax - 6 * ngram) / 6`. Those three
score every teacher event far faster than the LM did; `check` scores a few events with the whole default to
show the derived log-odds are the LM's own.
"""

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit
from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from teacher_set import EVENT, NEGATIVE, OUT, scored_events  # noqa: E402

from plausibility.scorers.registry import build_scorer  # noqa: E402
from plausibility.triple import Triple  # noqa: E402

FAST = "ensemble:3*event:conceptmax+conceptmax+6*ngram"
DEFAULT = "ensemble:3*event:conceptmax+conceptmax+6*zero-shot:@pmi-passive+6*ngram"
FAST_WEIGHTS = np.array([3.0, 1.0, 6.0])
LM_WEIGHT, TOTAL = 6.0, 16.0
LEMMAS = ["subject_lemma", "verb_lemma", "object_lemma"]
CHUNK = 10_000


def triples(table: pd.DataFrame) -> list[Triple]:
    """The events as the default scored them (its lemmas)."""
    return [Triple(*row) for row in table[LEMMAS].itertuples(index=False, name=None)]


def derive() -> None:
    scored = scored_events().reset_index(drop=True)
    fast = build_scorer(FAST).scorer  # the ensemble inside its calibration
    rows, start = [], time.perf_counter()
    for first in range(0, len(scored), CHUNK):
        rows.append(fast.member_log_odds(triples(scored.iloc[first : first + CHUNK])))
        print(f"{first + len(rows[-1][0]):,} of {len(scored):,} events, {time.perf_counter() - start:.0f} s")
    members = np.concatenate(rows, axis=1)
    scored["lm_log_odds"] = (TOTAL * scored.score.to_numpy() - FAST_WEIGHTS @ members) / LM_WEIGHT
    scored[[*EVENT, "lm_log_odds"]].to_parquet(OUT / "lm-member.parquet", index=False)


def check(size: int) -> None:
    derived = pd.read_parquet(OUT / "lm-member.parquet").merge(scored_events(), on=EVENT).sample(size, random_state=0)
    own = build_scorer(DEFAULT).scorer.member_log_odds(triples(derived))[2]
    gap = np.abs(own - derived.lm_log_odds.to_numpy())
    print(f"{size} events: the LM's own log-odds and the derived differ by at most {gap.max():.2e}")


def pairs(path: str) -> None:
    member = pd.read_parquet(OUT / "lm-member.parquet")
    probability = dict(zip(map(tuple, member[EVENT].to_numpy()), expit(member.lm_log_odds), strict=True))
    table = pd.read_parquet(path)
    table["target"] = [probability[event] for event in map(tuple, table[EVENT].to_numpy())]
    table["negative_target"] = [probability[event] for event in map(tuple, table[NEGATIVE].to_numpy())]
    out = OUT / (Path(path).stem + "-lm.parquet")
    table.to_parquet(out, index=False)
    print(
        f"{out}: {len(table):,} pairs; the LM member's mean probability {table.target.mean():.3f} attested, "
        f"{table.negative_target.mean():.3f} the others"
    )


def agreement(path: str) -> None:
    """Spearman between a student's scores of the judged valid halves and the LM member's log-odds."""
    members = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
    scores = pd.read_csv(path, sep="\t", keep_default_na=False)
    for name in ("pep3k", "20q", "plain"):
        rows = scores[scores.benchmark == name]
        student = dict(zip(rows.subject + " " + rows.verb + " " + rows.object, rows.score, strict=True))
        mine = [student[event] for event in members[name + "/events"]]
        print(f"{name}: Spearman {spearmanr(members[name + '/lo'][2], mine)[0]:.3f} with the LM member")


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "derive":
        derive()
    elif command == "agreement":
        agreement(sys.argv[2])
    elif command == "check":
        check(int(sys.argv[2]))
    else:
        pairs(sys.argv[2])

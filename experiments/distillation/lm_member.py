"""A student of the default's language model alone, to stand in for that member beside the default's other three.

The default's fast members (its ConceptMax net, read twice, and the n-gram counts) stay as they are, and only the
zero-shot LM, almost all of its time, is replaced by a net that learnt that member's log-odds on the teacher's
events.

    python experiments/distillation/lm_member.py derive      # outputs/distillation/lm-member.parquet
    python experiments/distillation/lm_member.py check 200   # derived against the LM's own, on 200 events
    python experiments/distillation/lm_member.py pairs FILE  # FILE's pairs, targets the LM member's probabilities
    python experiments/distillation/lm_member.py agreement SCORES.tsv  # a student's valid scores against the LM's

The teacher's score of an event is the weighted mean of its four members' calibrated log-odds, so the LM's
follows from the other three: `(16 * score - 3 * event:conceptmax - conceptmax - 6 * ngram) / 6`. Those three
score every teacher event far faster than the LM did; `check` scores a few events with the shipped default to
show the derived log-odds are the LM's own. `derive` reads every teacher score there is, so its count depends on
which draws were scored.
"""

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit
from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from agreement import FAST, LM, WEIGHTS, judged_members, judged_scores  # noqa: E402
from teacher_set import EVENT, OUT, scored_events, with_targets  # noqa: E402

from plausibility.scorers.registry import build_scorer  # noqa: E402
from plausibility.triple import Triple  # noqa: E402

FAST_MEMBERS = "ensemble:3*event:conceptmax+conceptmax+6*ngram"
LEMMAS = ["subject_lemma", "verb_lemma", "object_lemma"]
CHUNK = 10_000


def triples(table: pd.DataFrame) -> list[Triple]:
    """The events as the default scored them (its lemmas)."""
    return [Triple(*row) for row in table[LEMMAS].itertuples(index=False, name=None)]


def derive() -> None:
    """Every teacher event's LM log-odds, from its score and the three fast members' (`lm-member.parquet`)."""
    scored = scored_events().reset_index(drop=True)
    fast = build_scorer(FAST_MEMBERS).scorer  # the ensemble inside its calibration
    rows, start = [], time.perf_counter()
    for first in range(0, len(scored), CHUNK):
        rows.append(fast.member_log_odds(triples(scored.iloc[first : first + CHUNK])))
        print(f"{first + len(rows[-1][0]):,} of {len(scored):,} events, {time.perf_counter() - start:.0f} s")
    members = np.concatenate(rows, axis=1)
    scored["lm_log_odds"] = (scored.score.to_numpy() - WEIGHTS[FAST] @ members) / WEIGHTS[LM]
    scored[[*EVENT, "lm_log_odds"]].to_parquet(OUT / "lm-member.parquet", index=False)


def check(size: int) -> None:
    """The largest gap between derived and own LM log-odds on `size` teacher events: float noise, or a bug."""
    derived = pd.read_parquet(OUT / "lm-member.parquet").merge(scored_events(), on=EVENT).sample(size, random_state=0)
    own = build_scorer("default").scorer.member_log_odds(triples(derived))[LM]
    gap = np.abs(own - derived.lm_log_odds.to_numpy())
    print(f"{size} events: the LM's own log-odds and the derived differ by at most {gap.max():.2e}")


def pairs(path: str) -> None:
    """A pairs file whose targets are the LM member's probabilities of its events (`<name>-lm.parquet`)."""
    member = pd.read_parquet(OUT / "lm-member.parquet")
    probability = dict(zip(map(tuple, member[EVENT].to_numpy()), expit(member.lm_log_odds), strict=True))
    table = with_targets(pd.read_parquet(path), probability)
    out = OUT / (Path(path).stem + "-lm.parquet")
    table.to_parquet(out, index=False)
    print(
        f"{out}: {len(table):,} pairs; the LM member's mean probability {table.target.mean():.3f} attested, "
        f"{table.negative_target.mean():.3f} the others"
    )


def agreement(path: str) -> None:
    """Spearman between a student's scores of the judged valid halves and the LM member's log-odds."""
    members = judged_members()
    for name, (_, _, student) in judged_scores(path).items():
        print(f"{name}: Spearman {spearmanr(members[name + '/lo'][LM], student)[0]:.3f} with the LM member")


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    if command == "derive":
        derive()
    elif command == "check":
        check(int(arguments[0]))
    elif command == "pairs":
        pairs(arguments[0])
    elif command == "agreement":
        agreement(arguments[0])
    else:
        sys.exit(f"lm_member.py: command {command!r} is derive, check, pairs or agreement")

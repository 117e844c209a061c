"""How closely a student follows the default: Spearman and Pearson between the default's score and the student's,
event by event, on the judged valid halves or on teacher events the student never trained on.

    plausibility evaluate --model CHECKPOINT --benchmarks pep3k,20q,plain --splits valid --output DIR \
      --dump-scores outputs/distillation/student-valid-scores.tsv -q
    python experiments/distillation/agreement.py outputs/distillation/student-valid-scores.tsv

    python experiments/distillation/agreement.py sample 4000     # events-48000-sample.parquet: 4,000 events of
                                                                  # the 48,000 draw that the 16,000 draw lacks
    plausibility score --model CHECKPOINT --input outputs/distillation/events-48000-sample.parquet \
      --output outputs/distillation/student-sample.parquet -q
    python experiments/distillation/agreement.py unseen outputs/distillation/student-sample.parquet

On the judged halves the default's score is its members' log-odds (`judgement_benchmarks/levers/members.py`); on
teacher events it is the score `score --input` gave them.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import pearsonr, spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judgement_benchmarks" / "levers"))
from folds import WEIGHTS  # noqa: E402

OUT = Path("outputs/distillation")
EVENT = ["subject", "verb", "object"]


def report(name: str, default: np.ndarray, student: np.ndarray) -> None:
    print(f"{name}: Spearman {spearmanr(default, student)[0]:.3f}, Pearson {pearsonr(default, student)[0]:.3f}")


def judged(path: str) -> None:
    members = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
    scores = pd.read_csv(path, sep="\t", keep_default_na=False)
    for name in ("pep3k", "20q", "plain"):
        rows = scores[scores.benchmark == name]
        student = dict(zip(rows.subject + " " + rows.verb + " " + rows.object, rows.score, strict=True))
        mine = np.array([student[event] for event in members[name + "/events"]])
        report(name, WEIGHTS @ members[name + "/lo"], mine)


def sample(size: int) -> None:
    """Events only the 48,000 draw holds: the 16,000-pair student never saw them."""
    events = pd.read_parquet(OUT / "events-48000.parquet").sample(size, random_state=0)
    events.to_parquet(OUT / "events-48000-sample.parquet", index=False)


def unseen(path: str) -> None:
    teacher = pd.read_parquet(OUT / "scored-48000.parquet")[[*EVENT, "score"]]
    both = pd.read_parquet(path)[[*EVENT, "score"]].merge(teacher, on=EVENT, suffixes=("_student", "_default"))
    report(f"{len(both):,} unseen teacher events", both.score_default.to_numpy(), both.score_student.to_numpy())


if __name__ == "__main__":
    if sys.argv[1] == "sample":
        sample(int(sys.argv[2]))
    elif sys.argv[1] == "unseen":
        unseen(sys.argv[2])
    else:
        judged(sys.argv[1])

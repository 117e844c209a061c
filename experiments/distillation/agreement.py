"""How closely a student follows the default: Spearman and Pearson between the default's score and the student's,
event by event, on the judged valid halves or on teacher events the student never trained on.

    plausibility evaluate --model CHECKPOINT --benchmarks pep3k,20q,plain --splits valid --output DIR \
      --dump-scores outputs/distillation/student-valid-scores.tsv -q
    python experiments/distillation/agreement.py outputs/distillation/student-valid-scores.tsv
    python experiments/distillation/agreement.py difference outputs/distillation/student-valid-scores.tsv
    python experiments/distillation/agreement.py stacked outputs/distillation/student-valid-scores.tsv

    python experiments/distillation/agreement.py sample 48000 4000   # events-48000-sample.parquet: 4,000 events
                                                                      # of the 48,000 draw the 16,000 draw lacks
    python experiments/distillation/agreement.py sample shaped 4000  # events-shaped-sample.parquet
    plausibility score --model CHECKPOINT --input outputs/distillation/events-48000-sample.parquet \
      --output outputs/distillation/student-sample.parquet -q
    python experiments/distillation/agreement.py unseen outputs/distillation/student-sample.parquet [lm]

On the judged halves the default's score is its members' log-odds (`judgement_benchmarks/levers/members.py`); on
teacher events it is the score `score --input` gave them.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import pearsonr, spearmanr
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judgement_benchmarks" / "levers"))
from folds import SETS, WEIGHTS, out_of_fold  # noqa: E402

OUT = Path("outputs/distillation")
EVENT = ["subject", "verb", "object"]


def report(name: str, default: np.ndarray, student: np.ndarray) -> None:
    print(f"{name}: Spearman {spearmanr(default, student)[0]:.3f}, Pearson {pearsonr(default, student)[0]:.3f}")


def judged_scores(path: str) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each judged valid half's labels, the default's scores and the student's, in the same event order."""
    members = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
    scores = pd.read_csv(path, sep="\t", keep_default_na=False)
    halves = {}
    for name in ("pep3k", "20q", "plain"):
        rows = scores[scores.benchmark == name]
        student = dict(zip(rows.subject + " " + rows.verb + " " + rows.object, rows.score, strict=True))
        mine = np.array([student[event] for event in members[name + "/events"]])
        halves[name] = members[name + "/labels"], WEIGHTS @ members[name + "/lo"], mine
    return halves


def judged(path: str) -> None:
    for name, (_, default, student) in judged_scores(path).items():
        report(name, default, student)


def auc_gap(labels: np.ndarray, default: np.ndarray, student: np.ndarray, rows: np.ndarray) -> float:
    return roc_auc_score(labels[rows], student[rows]) - roc_auc_score(labels[rows], default[rows])


def difference(path: str, resamples: int = 1000) -> None:
    """The student's AUC less the default's, with a 95% bootstrap interval drawing the same events for both."""
    rng = np.random.default_rng(0)
    for name, halves in judged_scores(path).items():
        n = len(halves[0])
        draws = [auc_gap(*halves, rows) for rows in rng.integers(0, n, (resamples, n))]
        low, high = np.percentile(draws, [2.5, 97.5])
        print(f"{name}: AUC {auc_gap(*halves, np.arange(n)):+.3f} [{low:+.3f}, {high:+.3f}] against the default")


def stacked(path: str) -> None:
    """What the student adds to the default's three fast members: one logistic regression over their log-odds and
    the student's score, out of fold over the three valid halves, beside the same over the default's four and the
    three at the default's weights."""
    members = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
    halves = judged_scores(path)
    labels = {name: halves[name][0] for name in SETS}
    fast = {name: np.column_stack([members[name + "/lo"][[0, 1, 3]].T, halves[name][2]]) for name in SETS}
    default = {name: members[name + "/lo"].T for name in SETS}
    for title, features in (("fast members + student", fast), ("the default's four members", default)):
        scores = out_of_fold(features, labels)
        print(title + ": " + " / ".join(f"{roc_auc_score(labels[d], scores[d]):.3f}" for d in SETS))
    alone = [roc_auc_score(labels[d], WEIGHTS[[0, 1, 3]] @ members[d + "/lo"][[0, 1, 3]]) for d in SETS]
    print("the three fast members at the default's weights: " + " / ".join(f"{auc:.3f}" for auc in alone))


def sample(kind: str, size: int) -> None:
    """Teacher events the students never trained on: of the 48,000 draw, those the 16,000 draw lacks (unseen by
    the 16,000-pair student), or the shaped ones (unseen by every student trained without them)."""
    if kind == "48000":
        events = pd.read_parquet(OUT / "events-48000.parquet")
    else:
        shaped = pd.read_parquet(OUT / "pairs-48000-shaped-10000.parquet").iloc[48_000:]
        events = shaped[["negative_subject", "negative_verb", "negative_object"]].set_axis(EVENT, axis=1)
    events.sample(size, random_state=0).to_parquet(OUT / f"events-{kind}-sample.parquet", index=False)


def unseen(path: str, teacher: str = "default") -> None:
    """A student's scores of sampled teacher events against the default's, or the LM member's log-odds."""
    if teacher == "default":
        tables = [pd.read_parquet(path) for path in sorted(OUT.glob("scored-*.parquet"))]
        scores = pd.concat(tables).drop_duplicates(EVENT)[[*EVENT, "score"]]
    else:
        scores = pd.read_parquet(OUT / "lm-member.parquet").rename(columns={"lm_log_odds": "score"})
    both = pd.read_parquet(path)[[*EVENT, "score"]].merge(scores, on=EVENT, suffixes=("_student", "_teacher"))
    report(f"{len(both):,} unseen events, {teacher}", both.score_teacher.to_numpy(), both.score_student.to_numpy())


if __name__ == "__main__":
    if sys.argv[1] == "sample":
        sample(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "unseen":
        unseen(*sys.argv[2:])
    elif sys.argv[1] == "stacked":
        stacked(sys.argv[2])
    elif sys.argv[1] == "difference":
        difference(sys.argv[2])
    else:
        judged(sys.argv[1])

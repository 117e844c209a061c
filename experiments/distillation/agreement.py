"""How closely a student follows the default: Spearman and Pearson between the default's score and the student's,
event by event, on the judged valid halves or on sampled teacher events; and what the student adds to the default's
members.

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
    python experiments/distillation/agreement.py followed outputs/distillation/student-sample.parquet [lm]

On the judged halves the default's score is its members' log-odds (`judgement_benchmarks/levers/members.py`); on
teacher events it is the score `score --input` gave them.
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import pearsonr, spearmanr
from sklearn.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judgement_benchmarks" / "levers"))
from folds import SETS, WEIGHTS, out_of_fold  # noqa: E402
from teacher_set import EVENT, NEGATIVE, OUT, scored_events  # noqa: E402

# members.py's members, in its order: event:conceptmax, conceptmax, zero-shot:@pmi-passive, ngram.
FAST, LM = [0, 1, 3], 2


def report(name: str, teacher: np.ndarray, student: np.ndarray) -> None:
    """One line of rank and linear agreement."""
    print(f"{name}: Spearman {spearmanr(teacher, student)[0]:.3f}, Pearson {pearsonr(teacher, student)[0]:.3f}")


def judged_members() -> np.lib.npyio.NpzFile:
    return np.load("outputs/judgement_levers/members.npz", allow_pickle=True)


def judged_scores(path: str) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each judged valid half's labels, the default's scores and the student's, in the same event order."""
    members = judged_members()
    scores = pd.read_csv(path, sep="\t", keep_default_na=False)
    halves = {}
    for name in SETS:
        rows = scores[scores.benchmark == name]
        by_event = dict(zip(rows.subject + " " + rows.verb + " " + rows.object, rows.score, strict=True))
        student = np.array([by_event[event] for event in members[name + "/events"]])
        halves[name] = members[name + "/labels"], WEIGHTS @ members[name + "/lo"], student
    return halves


def judged(path: str) -> None:
    for name, (_, default, student) in judged_scores(path).items():
        report(name, default, student)


def auc_gap(labels: np.ndarray, default: np.ndarray, student: np.ndarray, rows: np.ndarray) -> float:
    """The student's AUC less the default's over the events `rows`."""
    return roc_auc_score(labels[rows], student[rows]) - roc_auc_score(labels[rows], default[rows])


def difference(path: str, resamples: int = 1000) -> None:
    """The student's AUC less the default's, with a 95% bootstrap interval drawing the same events for both."""
    rng = np.random.default_rng(0)
    for name, half in judged_scores(path).items():
        n = len(half[0])
        draws = [auc_gap(*half, rows) for rows in rng.integers(0, n, (resamples, n))]
        low, high = np.percentile(draws, [2.5, 97.5])
        print(f"{name}: AUC {auc_gap(*half, np.arange(n)):+.3f} [{low:+.3f}, {high:+.3f}] against the default")


def stacked(path: str) -> None:
    """What the student adds to the default's three fast members: one logistic regression, out of fold over the
    three valid halves, over those members' log-odds with and without the student's score, and over all four of
    the default's members."""
    members, halves = judged_members(), judged_scores(path)
    labels = {name: halves[name][0] for name in SETS}
    fast = {name: members[name + "/lo"][FAST].T for name in SETS}
    features = {
        "the three fast members": fast,
        "the three and the student": {name: np.column_stack([fast[name], halves[name][2]]) for name in SETS},
        "the default's four members": {name: members[name + "/lo"].T for name in SETS},
    }
    for title, table in features.items():
        scores = out_of_fold(table, labels)
        print(title + ": " + " / ".join(f"{roc_auc_score(labels[d], scores[d]):.3f}" for d in SETS))


def sample(kind: str, size: int) -> None:
    """Teacher events to follow a student on: of the 48,000 draw, those the 16,000 draw lacks (which the 16,000-pair
    student never saw), or the shaped ones (which only students trained on them saw)."""
    if kind == "48000":
        events = pd.read_parquet(OUT / "events-48000.parquet")
    elif kind == "shaped":
        shaped = pd.read_parquet(OUT / "pairs-48000-shaped-10000.parquet").iloc[48_000:]
        events = shaped[NEGATIVE].set_axis(EVENT, axis=1)
    else:
        sys.exit(f"sample: kind {kind!r} is 48000 or shaped")
    events.sample(size, random_state=0).to_parquet(OUT / f"events-{kind}-sample.parquet", index=False)


def followed(path: str, teacher: str = "default") -> None:
    """A student's scores of sampled teacher events against the default's, or against the LM member's log-odds."""
    if teacher == "default":
        scores = scored_events()[[*EVENT, "score"]]
    elif teacher == "lm":
        scores = pd.read_parquet(OUT / "lm-member.parquet").rename(columns={"lm_log_odds": "score"})
    else:
        sys.exit(f"followed: teacher {teacher!r} is default or lm")
    both = pd.read_parquet(path)[[*EVENT, "score"]].merge(scores, on=EVENT, suffixes=("_student", "_teacher"))
    report(f"{len(both):,} events, {teacher}", both.score_teacher.to_numpy(), both.score_student.to_numpy())


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    if command == "sample":
        sample(arguments[0], int(arguments[1]))
    elif command == "followed":
        followed(*arguments)
    elif command == "stacked":
        stacked(*arguments)
    elif command == "difference":
        difference(*arguments)
    else:  # a file of a student's scores of the judged valid halves
        judged(command)

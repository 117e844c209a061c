"""How closely a student follows the default on the valid halves: Spearman and Pearson between the default's
score (its members' log-odds, `judgement_benchmarks/levers/members.py`) and the student's, event by event.

    plausibility evaluate --model CHECKPOINT --benchmarks pep3k,20q,plain --splits valid --output DIR \
      --dump-scores outputs/distillation/student-valid-scores.tsv -q
    python experiments/distillation/agreement.py outputs/distillation/student-valid-scores.tsv
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import pearsonr, spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judgement_benchmarks" / "levers"))
from folds import WEIGHTS  # noqa: E402

members = np.load("outputs/judgement_levers/members.npz", allow_pickle=True)
scores = pd.read_csv(sys.argv[1], sep="\t", keep_default_na=False)
for name in ("pep3k", "20q", "plain"):
    rows = scores[scores.benchmark == name]
    student = dict(zip(rows.subject + " " + rows.verb + " " + rows.object, rows.score, strict=True))
    default = WEIGHTS @ members[name + "/lo"]
    mine = np.array([student[event] for event in members[name + "/events"]])
    print(f"{name}: Spearman {spearmanr(default, mine)[0]:.3f}, Pearson {pearsonr(default, mine)[0]:.3f}")

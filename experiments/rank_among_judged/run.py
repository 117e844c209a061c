"""Where a scorer ranks events among the human-judged events of the valid halves.

A calibrated probability says how an event compares with attested training events and their pseudo-negatives;
this says how it compares with what people judged. For each event and each valid half it prints the share of
plausible and of implausible events that score below it. An event that scores above half of the plausible
events and most of the implausible ones is, to this scorer, as plausible as a typical plausible one, and no
monotone calibration (fitted on any data) can put it below .5 while keeping the scorer's ranking of those
events. Both the given events and the judged ones are scored by the words as written (not as their lemmas), as
`plausibility evaluate` reads the judged events. Nothing is fitted or chosen here; the test halves are not read.

    python experiments/rank_among_judged/run.py 'rock eat sandwich' 'person breathe air' --model roberta
"""

import argparse

import numpy as np

from plausibility.api import as_triples, load_scorer
from plausibility.benchmarks.datasets import DATASETS, load_plausibility_set
from plausibility.errors import PlausibilityError
from plausibility.scorers.shipped import DEFAULT_MODEL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("events", nargs="+", metavar="'S V O'", help="events to place, one quoted 'S V O' each")
    parser.add_argument("--model", help=f"scorer SPEC (default: the shipped {DEFAULT_MODEL!r} model)")
    args = parser.parse_args()
    try:
        events = as_triples(args.events)  # the API's rule: three words, one per slot, lowercased
    except PlausibilityError as error:
        raise SystemExit(f"{error}; quote each event as one 'S V O'") from None
    spec = args.model or DEFAULT_MODEL
    scorer = load_scorer(spec).scorer  # the TripleScorer: the words as written, as evaluation reads them
    scores = scorer.score(events)
    print(f"{spec}: share of the valid halves' plausible / implausible events scoring below each event")
    halves = {}
    for name in DATASETS:
        half = load_plausibility_set(name, "valid")
        halves[name] = (np.array([e.label for e in half]), scorer.score([e.triple for e in half]))
    for event, score in zip(events, scores, strict=True):
        shares = [
            f"{name} {np.mean(valid[labels == 1] < score):.2f} / {np.mean(valid[labels == 0] < score):.2f}"
            for name, (labels, valid) in halves.items()
        ]
        print(f"  {event}: " + ", ".join(shares))


if __name__ == "__main__":
    main()

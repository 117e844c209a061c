"""Resnik's class-based selectional association over WordNet noun classes (thesis section 2.4.3)."""

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from plausibility.triple import Triple

# noun -> one hypernym chain per sense (class names, root first, the sense's own synset last); () if the noun
# is in no class.
SenseChains = Callable[[str], Sequence[Sequence[str]]]


def class_shares(chains: Sequence[Sequence[str]]) -> dict[str, float]:
    """What one occurrence of a noun credits each class: 1/|senses| for every sense whose chain holds it.

    The occurrence is split evenly over the noun's senses (Resnik 1993 spreads counts over a word's
    classes), and each sense's share goes to every class on its chain, so the root always receives exactly
    the whole occurrence and `P(root) = 1`.
    """
    shares: dict[str, float] = defaultdict(float)
    for chain in chains:
        for name in set(chain):
            shares[name] += 1.0 / len(chains)
    return dict(shares)


@dataclass(frozen=True)
class SlotAssociation:
    """Selectional association `A(v, c)` of each verb with the classes seen in one argument slot.

    Attributes:
        association: verb -> class -> `A(v, c)`; a class absent for a verb has `P(c|v) = 0`, hence `A = 0`.
        strength: verb -> selectional preference strength `S(v)` in nats.
    """

    association: dict[str, dict[str, float]]
    strength: dict[str, float]

    def plausibility(self, verb: str, chains: Sequence[Sequence[str]]) -> float:
        """`max A(v, c)` over every class on any chain of the argument; 0 without evidence (see `fit_slot`)."""
        row = self.association.get(verb)
        if row is None or not chains:
            return 0.0
        return max(row.get(name, 0.0) for chain in chains for name in chain)


def fit_slot(counts: Iterable[tuple[str, str, int]], sense_chains: SenseChains) -> SlotAssociation:
    """Estimate `A(v, c)` from `(verb, noun, count)` observations of one slot, by maximum likelihood.

    With class frequencies `f(c) = Σ_n count(n) · share(n, c)` (`class_shares`), `P(c) = f(c) / N` and
    `P(c|v) = f(v, c) / f(v)`:
    `S(v) = Σ_c P(c|v) log(P(c|v) / P(c))` (thesis eq. 2.8) and `A(v, c) = P(c|v) log(P(c|v) / P(c)) / S(v)`
    (eq. 2.9). Nouns in no class (not WordNet nouns) are left out of every count. Classes nest, so `S(v)` is
    not a true KL divergence and can come out zero or negative for a verb whose arguments follow the prior;
    such a verb shows no preference and gets `A = 0` everywhere.
    """
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    for verb, noun, count in counts:  # many subjects share one (verb, object): spread each pair once
        pairs[verb, noun] += count
    by_verb: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    prior: dict[str, float] = defaultdict(float)
    verb_totals: dict[str, float] = defaultdict(float)
    shares = cache(lambda noun: class_shares(sense_chains(noun)))
    for (verb, noun), count in pairs.items():
        noun_shares = shares(noun)
        if not noun_shares:
            continue
        verb_totals[verb] += count
        for name, share in noun_shares.items():
            by_verb[verb][name] += count * share
            prior[name] += count * share
    total = sum(verb_totals.values())
    association: dict[str, dict[str, float]] = {}
    strength: dict[str, float] = {}
    for verb, frequencies in by_verb.items():
        terms = {}
        for name, frequency in frequencies.items():
            conditional = frequency / verb_totals[verb]
            terms[name] = conditional * math.log(conditional / (prior[name] / total))
        strength[verb] = math.fsum(terms.values())
        if strength[verb] > 0:
            association[verb] = {name: term / strength[verb] for name, term in terms.items()}
    return SlotAssociation(association, strength)


class ResnikScorer:
    """Resnik's plausibility of an event: the subject slot's association plus the object slot's.

    Each slot is scored as in thesis eq. 2.10, `max A(v, c)` over the classes of the argument (all its
    senses), and the event's score is the **sum** of the subject's and the object's: both are shares of the
    verb's selectional strength in their slot (dimensionless, at most about 1), so adding them weighs the
    slots equally, and an argument with no evidence adds 0. Unseen verbs and words outside WordNet score 0.
    """

    probability_mapping = "sigmoid of the summed subject and object selectional associations"

    def __init__(self, subject: SlotAssociation, object: SlotAssociation, sense_chains: SenseChains) -> None:
        """Args:
        subject: association of each verb with its subjects' classes.
        object: association of each verb with its objects' classes.
        sense_chains: the classes of any noun, including nouns never seen in training.
        """
        self.subject = subject
        self.object = object
        self.sense_chains = cache(lambda noun: tuple(tuple(chain) for chain in sense_chains(noun)))

    @classmethod
    def fit(cls, counts: Mapping[Triple, int], sense_chains: SenseChains) -> "ResnikScorer":
        """Estimate both slots from triple counts."""
        subjects = ((triple.verb, triple.subject, count) for triple, count in counts.items())
        objects = ((triple.verb, triple.object, count) for triple, count in counts.items())
        return cls(fit_slot(subjects, sense_chains), fit_slot(objects, sense_chains), sense_chains)

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        return np.array(
            [
                self.subject.plausibility(triple.verb, self.sense_chains(triple.subject))
                + self.object.plausibility(triple.verb, self.sense_chains(triple.object))
                for triple in triples
            ],
            dtype=np.float64,
        )

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.asarray(scores, dtype=np.float64)))


def wordnet_sense_chains() -> SenseChains:
    """Every sense of a noun with its full, unfiltered WordNet chain (Resnik uses all classes)."""
    from plausibility.lexicon.hierarchy import Hierarchy

    hierarchy = Hierarchy.load(min_depth=1)
    return lambda noun: [[concept.synset for concept in hierarchy.chain(sense)] for sense in hierarchy.senses(noun)]


def load_resnik(argument: str | None) -> ResnikScorer:
    """SPEC `resnik` (the bundled training triples) or `resnik:<triples.parquet>`."""
    from plausibility.corpus.tables import read_triples
    from plausibility.resources import data_dir

    path = Path(argument) if argument else data_dir() / "training" / "triples.parquet"
    return ResnikScorer.fit(read_triples(path), wordnet_sense_chains())

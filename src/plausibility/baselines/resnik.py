"""Resnik's class-based selectional association over WordNet noun classes (thesis section 2.4.3)."""

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from scipy import sparse
from scipy.special import expit

from plausibility.triple import Triple

MIN_STRENGTH = 1e-9  # nats; below it a verb counts as showing no preference

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
        verbs: verb -> row of `association`.
        classes: class name -> column of `association`.
        association: (n_verbs, n_classes) sparse `A(v, c)`; an absent entry has `P(c|v) = 0`, hence `A = 0`.
        strength: verb -> selectional preference strength `S(v)` in nats.
        frequencies: (n_verbs, n_classes) sparse `f(v, c)` the association was estimated from.
        verb_totals: `f(v)` by row; class_totals: `f(c)` by column; `N` is `verb_totals.sum()`.
    """

    verbs: dict[str, int]
    classes: dict[str, int]
    association: sparse.csr_array
    strength: dict[str, float]
    frequencies: sparse.csr_array
    verb_totals: np.ndarray
    class_totals: np.ndarray

    def _entries(self, verb: str) -> tuple[np.ndarray, np.ndarray]:
        """The verb's stored columns (sorted: canonical CSR) and their associations."""
        start, stop = self.association.indptr[self.verbs[verb]], self.association.indptr[self.verbs[verb] + 1]
        return self.association.indices[start:stop], self.association.data[start:stop]

    def row(self, verb: str) -> dict[str, float]:
        """Every class the verb was seen with, and its association; empty for a verb with no preference."""
        if verb not in self.verbs:
            return {}
        names = list(self.classes)
        columns, values = self._entries(verb)
        return {names[column]: float(value) for column, value in zip(columns, values, strict=True)}

    def columns(self, chains: Sequence[Sequence[str]]) -> np.ndarray:
        """The columns of every class on the chains; a class never seen in this slot maps to the extra,
        always-zero column `len(classes)` of `maxima`'s dense rows."""
        unseen = len(self.classes)
        return np.unique(np.array([self.classes.get(name, unseen) for chain in chains for name in chain], np.intp))

    def maxima(self, verbs: Sequence[str], columns: Sequence[np.ndarray]) -> np.ndarray:
        """`max A(v, c)` over each argument's `columns`, for many (verb, argument) pairs at once.

        Each distinct verb's row is laid out densely once, with 0 for the classes it was never seen with
        (`A = 0` there), and its pairs' maxima are one `maximum.reduceat`; an unseen verb or an argument
        with no class scores 0.
        """
        scores = np.zeros(len(verbs))
        pairs: dict[str, list[int]] = defaultdict(list)
        for index, (verb, argument) in enumerate(zip(verbs, columns, strict=True)):
            if verb in self.verbs and len(argument):
                pairs[verb].append(index)
        dense = np.zeros(len(self.classes) + 1)
        for verb, indices in pairs.items():
            stored, values = self._entries(verb)
            dense[stored] = values
            arguments = [columns[index] for index in indices]
            starts = np.cumsum([0, *(len(argument) for argument in arguments[:-1])])
            scores[indices] = np.maximum.reduceat(dense[np.concatenate(arguments)], starts)
            dense[stored] = 0.0
        return scores

    def held_out_maximum(self, verb: str, chains: Sequence[Sequence[str]], count: int) -> float:
        """`plausibility` as if `count` occurrences of (verb, this argument) had never been counted.

        The verb's row is estimated again from `f(v, c)`, `f(v)`, `f(c)` and `N`, each less the argument's
        shares; every other verb is untouched, so this equals refitting on counts without those occurrences.
        """
        if verb not in self.verbs:
            return 0.0
        row = self.verbs[verb]
        start, stop = self.frequencies.indptr[row], self.frequencies.indptr[row + 1]
        stored = self.frequencies.indices[start:stop]
        shares = {self.classes[name]: share for name, share in class_shares(chains).items() if name in self.classes}
        removed = count if shares else 0  # a noun in no class was never counted in this slot
        own = count * np.array([shares.get(column, 0.0) for column in stored])
        joint = self.frequencies.data[start:stop] - own
        total = self.verb_totals[row] - removed
        seen = joint > 1e-9 * max(total, 1.0)  # a class left with no count is absent, as in a refit
        if total <= 0 or not seen.any():
            return 0.0
        prior = (self.class_totals[stored[seen]] - own[seen]) / (self.verb_totals.sum() - removed)
        values, _, _ = associations(joint[seen] / total, prior, np.zeros(int(seen.sum()), np.intp), 1)
        association = dict(zip(stored[seen].tolist(), values.tolist(), strict=True))
        columns = self.columns(chains)
        return max((association.get(int(column), 0.0) for column in columns), default=0.0)

    def plausibility(self, verb: str, chains: Sequence[Sequence[str]]) -> float:
        """`max A(v, c)` over every class on any chain of the argument; 0 without evidence (see `fit_slot`)."""
        return float(self.maxima([verb], [self.columns(chains)])[0])


def associations(
    conditional: np.ndarray, prior: np.ndarray, rows: np.ndarray, n_verbs: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`A(v, c)` of each seen (v, c) entry, whose verb is row `rows[i]`; `S(v)` of each of the `n_verbs`; and
    which entries belong to a verb that shows a preference.

    `conditional` and `prior` are the entries' `P(c|v)` and `P(c)`. A verb with `S(v) <= MIN_STRENGTH`
    follows the prior up to rounding, and dividing rounding noise would blow `A` up: its entries get 0.
    """
    terms = conditional * np.log(conditional / prior)
    strength = np.bincount(rows, weights=terms, minlength=n_verbs)
    preferring = strength[rows] > MIN_STRENGTH
    return np.where(preferring, terms / np.where(preferring, strength[rows], 1.0), 0.0), strength, preferring


def fit_slot(counts: Iterable[tuple[str, str, int]], sense_chains: SenseChains) -> SlotAssociation:
    """Estimate `A(v, c)` from `(verb, noun, count)` observations of one slot, by maximum likelihood.

    With class frequencies `f(c) = Σ_n count(n) · share(n, c)` (`class_shares`), `P(c) = f(c) / N` and
    `P(c|v) = f(v, c) / f(v)`:
    `S(v) = Σ_c P(c|v) log(P(c|v) / P(c))` (thesis eq. 2.8) and `A(v, c) = P(c|v) log(P(c|v) / P(c)) / S(v)`
    (eq. 2.9). Nouns in no class (not WordNet nouns) are left out of every count. Classes nest, so `S(v)` is
    not a true KL divergence and can come out zero or negative for a verb whose arguments follow the prior;
    such a verb (`S(v) <= MIN_STRENGTH`) shows no preference and gets `A = 0` everywhere.
    """
    pairs: dict[tuple[str, str], int] = defaultdict(int)
    for verb, noun, count in counts:
        pairs[verb, noun] += count
    nouns: dict[str, int] = {}
    classes: dict[str, int] = {}
    share_rows, share_columns, share_values = [], [], []
    for noun in sorted({noun for _, noun in pairs}):
        shares = class_shares(sense_chains(noun))
        if not shares:
            continue
        nouns[noun] = len(nouns)
        for name, share in shares.items():
            share_rows.append(nouns[noun])
            share_columns.append(classes.setdefault(name, len(classes)))
            share_values.append(share)
    kept = [(verb, noun, count) for (verb, noun), count in pairs.items() if noun in nouns]
    verbs = {verb: row for row, verb in enumerate(sorted({verb for verb, _, _ in kept}))}
    shares = sparse.csr_array((share_values, (share_rows, share_columns)), shape=(len(nouns), len(classes)))
    pair_counts = sparse.csr_array(
        ([float(count) for *_, count in kept], ([verbs[v] for v, _, _ in kept], [nouns[n] for _, n, _ in kept])),
        shape=(len(verbs), len(nouns)),
    )
    frequencies = (pair_counts @ shares).tocoo()  # f(v, c), (n_verbs, n_classes)
    verb_totals = np.asarray(pair_counts.sum(axis=1)).ravel()  # f(v)
    prior = np.asarray(frequencies.sum(axis=0)).ravel() / max(verb_totals.sum(), 1.0)  # P(c)
    conditional = frequencies.data / verb_totals[frequencies.row]  # P(c|v) on the seen (v, c)
    values, strength, preferring = associations(conditional, prior[frequencies.col], frequencies.row, len(verbs))
    rows, columns = frequencies.row[preferring], frequencies.col[preferring]  # the other verbs' A is 0: not stored
    association = sparse.csr_array((values[preferring], (rows, columns)), shape=(len(verbs), len(classes)))
    association.sort_indices()
    joint = sparse.csr_array(frequencies)
    joint.sort_indices()
    return SlotAssociation(
        verbs,
        classes,
        association,
        {verb: float(strength[row]) for verb, row in verbs.items()},
        joint,
        verb_totals,
        np.asarray(frequencies.sum(axis=0)).ravel(),
    )


class ResnikScorer:
    """Resnik's plausibility of an event: the subject slot's association plus the object slot's.

    Each slot is scored as in thesis eq. 2.10, `max A(v, c)` over the classes of the argument (all its
    senses), and the event's score is the **sum** of the subject's and the object's: both are shares of the
    verb's selectional strength in their slot (dimensionless, at most about 1), so adding them weighs the
    slots equally, and an argument with no evidence adds 0. Unseen verbs and words outside WordNet score 0.
    """

    probability_mapping = "sigmoid of the summed subject and object selectional associations"
    lexicon = None  # counted, not trained on nouns: grids are laid out in the bundled lexicon

    def __init__(
        self, subject: SlotAssociation, object: SlotAssociation, sense_chains: SenseChains, counts: Mapping[Triple, int]
    ) -> None:
        """Args:
        subject: association of each verb with its subjects' classes.
        object: association of each verb with its objects' classes.
        sense_chains: the classes of any noun, including nouns never seen in training.
        counts: the triple counts both slots were fitted on (for `held_out_score`).
        """
        self.subject = subject
        self.object = object
        self.counts = counts
        self.sense_chains = cache(lambda noun: tuple(tuple(chain) for chain in sense_chains(noun)))
        # noun -> the columns of its classes in each slot, looked up once per noun
        self._subject_columns: dict[str, np.ndarray] = {}
        self._object_columns: dict[str, np.ndarray] = {}

    @classmethod
    def fit(cls, counts: Mapping[Triple, int], sense_chains: SenseChains) -> "ResnikScorer":
        """Estimate both slots from triple counts."""
        subjects = ((triple.verb, triple.subject, count) for triple, count in counts.items())
        objects = ((triple.verb, triple.object, count) for triple, count in counts.items())
        return cls(fit_slot(subjects, sense_chains), fit_slot(objects, sense_chains), sense_chains, counts)

    def _slot_scores(
        self, slot: SlotAssociation, known: dict[str, np.ndarray], verbs: Sequence[str], nouns: Sequence[str]
    ) -> np.ndarray:
        for noun in set(nouns) - known.keys():
            known[noun] = slot.columns(self.sense_chains(noun))
        return slot.maxima(verbs, [known[noun] for noun in nouns])

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        verbs = [triple.verb for triple in triples]
        subjects = self._slot_scores(self.subject, self._subject_columns, verbs, [t.subject for t in triples])
        return subjects + self._slot_scores(self.object, self._object_columns, verbs, [t.object for t in triples])

    def held_out_score(self, triples: Sequence[Triple]) -> np.ndarray:
        """`score` with each triple's own occurrences left out of both slots' counts (leave one out).

        An attested event of the calibration slice then scores as an event never counted would, which is
        what the calibration must be fitted on (as the n-gram's is). A triple not in the counts scores as
        `score` has it; each verb's row is estimated again per triple, so this is for slices, not whole sets.
        """
        scores = self.score(triples)  # what a triple never counted keeps
        for index, triple in enumerate(triples):
            if own := self.counts.get(triple, 0):
                subject = self.subject.held_out_maximum(triple.verb, self.sense_chains(triple.subject), own)
                obj = self.object.held_out_maximum(triple.verb, self.sense_chains(triple.object), own)
                scores[index] = subject + obj
        return scores

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        return expit(np.asarray(scores, dtype=np.float64))


def wordnet_sense_chains() -> SenseChains:
    """Every sense of a noun with its full, unfiltered WordNet chain (Resnik uses all classes)."""
    from plausibility.lexicon.hierarchy import Hierarchy

    hierarchy = Hierarchy.load(min_depth=1)
    return lambda noun: [[concept.synset for concept in hierarchy.chain(sense)] for sense in hierarchy.senses(noun)]

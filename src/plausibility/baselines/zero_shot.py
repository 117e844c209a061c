"""The zero-shot baseline: a triple realised as a sentence and scored by a language model, untrained."""

from collections.abc import Callable, Hashable, Sequence
from typing import Literal, cast, get_args

import numpy as np
from scipy.special import expit

from plausibility.baselines.realise import noun_phrase, passive_opening, realise
from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.lm.protocol import LanguageModelScorer, MaskedLanguageModel
from plausibility.triple import Triple

# The formulas, documented on `ZeroShotScorer`.
ZeroShotVariant = Literal["raw", "pmi", "pmi-passive", "masked"]
ZERO_SHOT_VARIANTS: tuple[str, ...] = get_args(ZeroShotVariant)

_MAPPINGS = {
    "raw": "exp of the score: the sentence's probability",
    "pmi": "sigmoid of the score: P(sentence) / (P(sentence) + P(The s)·P(The o))",
    "pmi-passive": "sigmoid of the score: the pmi score plus log P(s | The o is v-en by the) / P(The s)",
    "masked": "exp of the score: P(o|v)·P(s|v,o), each a geometric mean over the noun's tokens",
}


def score_distinct(keys: Sequence[Hashable], score: Callable[[list], np.ndarray]) -> np.ndarray:
    """`score(keys)` as float64 in input order, with each distinct key scored once (events share nouns and texts)."""
    unique = list(dict.fromkeys(keys))
    by_key = dict(zip(unique, np.asarray(score(unique), dtype=np.float64).tolist(), strict=True))
    return np.array([by_key[key] for key in keys], dtype=np.float64)


class ZeroShotScorer:
    """`TripleScorer` that reads plausibility off a language model, with no training (thesis §6.4.4).

    The triple is realised as "The {s} {v-3sg} the {o}." and scored, in natural log, by one of:

    - `raw`: `log P(sentence)`, summed over its tokens (any LM; the causal LM's native score).
    - `pmi`: `log P(sentence) - log P("The {s}") - log P("The {o}")`, which discounts how likely the
      nouns are on their own, so frequent nouns no longer make any event look plausible.
    - `pmi-passive`: `pmi` plus `log P(s | "The {o} is {v-en} by the") - log P("The {s}")`. A causal LM
      reads the active sentence's subject before anything it should fit, so `pmi` barely weighs whether
      the subject can do the verb to the object; the passive reads the subject last, conditioned on both
      (the causal counterpart of the masked formula's `P(s | v, o)`).
    - `masked` (the thesis's formula, masked LMs only): `log P(o | v) + log P(s | v, o)`, where
      `P(o | v)` is read with subject and object masked and `P(s | v, o)` with only the subject masked;
      a noun of several tokens is masked whole and its probability is the geometric mean of its tokens'.

    Each distinct sentence, noun phrase, passive and (masked) event is scored once per call.
    """

    def __init__(self, lm: LanguageModelScorer, variant: ZeroShotVariant = "pmi") -> None:
        """Score with `lm` by `variant` (`raw`, `pmi`, or `masked`, which needs a `MaskedLMScorer`)."""
        if variant not in ZERO_SHOT_VARIANTS:
            raise UnknownNameError("zero-shot variant", variant, ZERO_SHOT_VARIANTS)
        if variant == "masked" and not isinstance(lm, MaskedLanguageModel):
            raise DataFormatError(
                f"the masked zero-shot formula needs a masked LM, got {type(lm).__name__}; "
                "use the raw or pmi variant with a causal LM"
            )
        self.lm = lm
        self.variant = variant
        self.probability_mapping = _MAPPINGS[variant]
        self.lexicon = None  # trained on no nouns: grids are laid out in the bundled lexicon

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """Natural-log score of each triple (float64, input order); higher is more plausible."""
        if not triples:
            return np.empty(0, dtype=np.float64)
        if self.variant == "masked":
            return score_distinct(list(triples), self._masked)
        scores = score_distinct([realise(triple).text for triple in triples], self.lm.text_logprob)
        if self.variant == "raw":
            return scores
        nouns = [triple.subject for triple in triples] + [triple.object for triple in triples]
        subjects, objects = np.split(score_distinct([noun_phrase(noun) for noun in nouns], self.lm.text_logprob), 2)
        scores = scores - subjects - objects
        if self.variant == "pmi":
            return scores
        passives = [(passive_opening(triple), f"{triple.subject}.") for triple in triples]
        return scores + score_distinct(passives, self._conditional) - subjects

    def _conditional(self, passives: Sequence[tuple[str, str]]) -> np.ndarray:
        """`log P(s. | "The {o} is {v-en} by the")` of each (opening, subject) pair."""
        return self.lm.conditional_logprob([opening for opening, _ in passives], [end for _, end in passives])

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        """Scores into [0, 1]: exp for `raw` and `masked` (they are log-probabilities), sigmoid for the pmi ones."""
        return np.exp(scores) if self.variant in ("raw", "masked") else expit(scores)

    def _masked(self, triples: Sequence[Triple]) -> np.ndarray:
        lm = cast(MaskedLanguageModel, self.lm)  # checked in __init__
        realised = [realise(triple) for triple in triples]
        texts = [r.text for r in realised]
        # P(o | v): subject and object masked, the object's tokens scored.
        objects = lm.masked_logprobs(texts, [[r.subject, r.object] for r in realised], [r.object for r in realised])
        # P(s | v, o): only the subject masked and scored.
        subjects = lm.masked_logprobs(texts, [[r.subject] for r in realised], [r.subject for r in realised])
        # The mean of token log-probabilities is the log of their geometric mean.
        return np.array([o.mean() + s.mean() for o, s in zip(objects, subjects, strict=True)], dtype=np.float64)

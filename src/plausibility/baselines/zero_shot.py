"""The zero-shot baseline: a triple realised as a sentence and scored by a language model, untrained."""

from collections.abc import Sequence
from typing import cast

import numpy as np
from scipy.special import expit

from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.scorers.spec import ZERO_SHOT_VARIANTS, ZeroShotVariant
from plausibility.scoring.masked import MaskedLMScorer
from plausibility.scoring.protocols import LanguageModelScorer
from plausibility.scoring.realise import noun_phrase, passive_opening, realise
from plausibility.triple import Triple

_MAPPINGS = {
    "raw": "exp of the score: the sentence's probability",
    "pmi": "sigmoid of the score: P(sentence) / (P(sentence) + P(The s)·P(The o))",
    "pmi-passive": "sigmoid of the score: the pmi score plus log P(s | The o is v-en by the) / P(The s)",
    "masked": "exp of the score: P(o|v)·P(s|v,o), each a geometric mean over the noun's tokens",
}


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

    Each distinct sentence and noun phrase is scored once per call.
    """

    def __init__(self, lm: LanguageModelScorer, variant: ZeroShotVariant = "pmi") -> None:
        """Score with `lm` by `variant` (`raw`, `pmi`, or `masked`, which needs a `MaskedLMScorer`)."""
        if variant not in ZERO_SHOT_VARIANTS:
            raise UnknownNameError("zero-shot variant", variant, ZERO_SHOT_VARIANTS)
        if variant == "masked" and not isinstance(lm, MaskedLMScorer):
            raise DataFormatError(
                f"the masked zero-shot formula needs a masked LM, got {type(lm).__name__}; "
                "use the raw or pmi variant with a causal LM"
            )
        self.lm = lm
        self.variant = variant
        self.probability_mapping = _MAPPINGS[variant]

    def score(self, triples: Sequence[Triple]) -> np.ndarray:
        """Natural-log score of each triple (float64, input order); higher is more plausible."""
        if not triples:
            return np.empty(0, dtype=np.float64)
        if self.variant == "masked":
            return self._masked(triples)
        sentences = self._text_logprobs([realise(triple).text for triple in triples])
        scores = np.array([sentences[realise(triple).text] for triple in triples], dtype=np.float64)
        if self.variant == "raw":
            return scores
        nouns = self._text_logprobs([noun_phrase(n) for triple in triples for n in (triple.subject, triple.object)])
        subjects = np.array([nouns[noun_phrase(triple.subject)] for triple in triples], dtype=np.float64)
        objects = np.array([nouns[noun_phrase(triple.object)] for triple in triples], dtype=np.float64)
        scores = scores - subjects - objects
        if self.variant == "pmi":
            return scores
        return scores + self._passive_subject_logprobs(triples) - subjects

    def _passive_subject_logprobs(self, triples: Sequence[Triple]) -> np.ndarray:
        """`log P(s. | "The {o} is {v-en} by the")` of each triple, each distinct passive scored once."""
        passives = [(passive_opening(triple), f"{triple.subject}.") for triple in triples]
        unique = list(dict.fromkeys(passives))
        logprobs = self.lm.conditional_logprob([opening for opening, _ in unique], [end for _, end in unique])
        by_passive = dict(zip(unique, logprobs.tolist(), strict=True))
        return np.array([by_passive[passive] for passive in passives], dtype=np.float64)

    def to_probability(self, scores: np.ndarray) -> np.ndarray:
        """Scores into [0, 1]: exp for `raw` and `masked` (they are log-probabilities), sigmoid for the pmi ones."""
        return np.exp(scores) if self.variant in ("raw", "masked") else expit(scores)

    def _text_logprobs(self, texts: Sequence[str]) -> dict[str, float]:
        """`log P(text)` of each distinct text, keyed by the text."""
        unique = list(dict.fromkeys(texts))
        return dict(zip(unique, self.lm.text_logprob(unique).tolist(), strict=True))

    def _masked(self, triples: Sequence[Triple]) -> np.ndarray:
        lm = cast(MaskedLMScorer, self.lm)  # checked in __init__
        realised = [realise(triple) for triple in triples]
        texts = [r.text for r in realised]
        # P(o | v): subject and object masked, the object's tokens scored.
        objects = lm.masked_logprobs(texts, [[r.subject, r.object] for r in realised], [r.object for r in realised])
        # P(s | v, o): only the subject masked and scored.
        subjects = lm.masked_logprobs(texts, [[r.subject] for r in realised], [r.subject for r in realised])
        # The mean of token log-probabilities is the log of their geometric mean.
        return np.array([o.mean() + s.mean() for o, s in zip(objects, subjects, strict=True)], dtype=np.float64)

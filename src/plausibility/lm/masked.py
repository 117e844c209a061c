"""Pseudo-log-likelihoods of texts and continuations under a masked language model (Salazar et al., 2020;
Kauf & Ivanova, 2023)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Self

import numpy as np
import torch

from plausibility.devices import DType, resolve_device, resolve_dtype
from plausibility.errors import DataFormatError, ResourceMissingError, UnknownNameError
from plausibility.lm.loading import load_lm
from plausibility.lm.measures import Measure, target_logprobs, target_ranks
from plausibility.lm.protocol import DEFAULT_PLL, PLL_METRICS, PLLMetric
from plausibility.lm.token_scorer import TokenScorer
from plausibility.lm.tokens import TokenisedText, check_texts, continuation_tokens, tokenise
from plausibility.lm.words import WordScores, continuation_words

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase


@dataclass(frozen=True, slots=True)
class _Request:
    """One forward pass: `ids` with the positions `masked` replaced by the mask token; `scored` ⊆ `masked`."""

    ids: tuple[int, ...]
    masked: tuple[int, ...]
    scored: tuple[int, ...]


class MaskedLMScorer(TokenScorer):
    """`LanguageModelScorer` over any Hugging Face masked LM (`AutoModelForMaskedLM`).

    Scores are pseudo-log-likelihoods (PLL): each token is masked in turn and scored by the model's
    log-probability of the true token at the mask. With `pll="original"` (Salazar et al., 2020) everything
    else stays visible; with `pll="word-l2r"` (Kauf & Ivanova, 2023, the default) the later pieces of the
    same word are masked too, since a word of several pieces is otherwise nearly given away by its other
    pieces and its PLL inflated. Words are the tokenizer's own (its fast tokenizer's word ids), as in
    minicons' `within_word_l2r`. A text is tokenised once with the tokenizer's special tokens (`<s>`,
    `</s>`), which are never scored. For `log P(continuation | context)` only the continuation's tokens are
    scored, the context visible. `masked_logprobs` masks several positions at once.

    Masked copies of texts run `batch_size` at a time, so memory is bounded by the batch, however long a text.

    `text_logprob`, `conditional_logprob`, `from_model` and minicons' names come from `TokenScorer`; here
    they are pseudo-log-likelihoods.
    """

    pll: PLLMetric

    def __init__(
        self,
        model: str,
        batch_size: int = 32,
        device: str | None = None,
        dtype: DType = "float32",
        pll: PLLMetric = DEFAULT_PLL,
    ) -> None:
        """Load `model`, a Hugging Face id or a local folder with a masked-LM head.

        Args:
            model: the masked LM to load (no masked LM ships offline).
            batch_size: sequences per forward pass (a text of n tokens takes n sequences).
            device: `cpu`, `cuda`, `cuda:N`, `mps` or `auto` (the default: the first GPU when there is one).
            dtype: `float32`, `bfloat16` or `float16`, the precision of the weights (log-probabilities in float32).
            pll: `word-l2r` (the default) or `original`; see the class docstring.
        """
        tokenizer, network = load_lm(model, "masked")
        self._attach(network, tokenizer, batch_size, resolve_device(device or "auto"), resolve_dtype(dtype))
        self.pll = _checked_pll(pll, self.tokenizer)

    @classmethod
    def from_model(
        cls,
        model: "PreTrainedModel",
        tokenizer: "PreTrainedTokenizerBase",
        batch_size: int = 32,
        device: str | None = None,
        dtype: DType | None = None,
        pll: PLLMetric = DEFAULT_PLL,
    ) -> Self:
        """Wrap a masked LM already in memory; see `TokenScorer.from_model` and the class docstring for `pll`."""
        scorer = super().from_model(model, tokenizer, batch_size, device, dtype)
        scorer.pll = _checked_pll(pll, scorer.tokenizer)
        return scorer

    def _setup(self) -> None:
        """Read the mask and padding tokens off the tokenizer."""
        if self.tokenizer.mask_token_id is None:
            raise ResourceMissingError(
                f"tokenizer of {self.model.name_or_path or type(self.model).__name__} has no mask token; "
                "a masked LM scorer needs one (use CausalLMScorer for left-to-right models)"
            )
        self._mask = int(self.tokenizer.mask_token_id)
        pad = self.tokenizer.pad_token_id
        self._pad = int(pad if pad is not None else self._mask)
        self._encoder, self._head = _encoder_and_head(self.model)

    # --- public verbs ---------------------------------------------------------------------------------

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Pseudo-log-probability of every (non-special) token of each text, each masked in turn."""
        return self._one_at_a_time([""] * len(texts), texts, target_logprobs)

    def conditional_token_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " "
    ) -> list[np.ndarray]:
        """Each continuation token's log-probability, masked in turn, its context (joined by `separator`) visible."""
        return self._one_at_a_time(contexts, continuations, target_logprobs, separator)

    def token_ranks(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Rank of every (non-special) token of each text at its mask (1 = the model's most probable token)."""
        return self._one_at_a_time([""] * len(texts), texts, target_ranks)

    def conditional_word_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " ", bow_correction: bool = True
    ) -> list[WordScores]:
        """Each continuation word's pseudo-log-probability: its pieces' PLL, summed. An empty context: a whole text.

        Words lie between spaces, as for a causal LM. `bow_correction` does not apply: a masked LM scores a
        piece with what follows it visible, so no word's end is left to predict.
        """
        tokenised = continuation_tokens(self.tokenizer, contexts, continuations, separator, True)
        values = self._one_at_a_time(contexts, continuations, target_logprobs, separator)
        return continuation_words(tokenised, values, contexts, continuations, separator)

    def token_names(self, texts: Sequence[str]) -> list[list[str]]:
        """Each text's scored (non-special) tokens, decoded and stripped as minicons shows them."""
        check_texts(texts)
        names = []
        for tokens in tokenise(self.tokenizer, texts, add_special_tokens=True):
            scored = [token for token, special in zip(tokens.ids, tokens.special, strict=True) if not special]
            names.append([self.tokenizer.decode([token]).strip() for token in scored])
        return names

    def masked_logprobs(
        self,
        texts: Sequence[str],
        masked_spans: Sequence[Sequence[tuple[int, int]]],
        scored_spans: Sequence[tuple[int, int]],
    ) -> list[np.ndarray]:
        """Log-probabilities of the tokens of one span with several spans masked at the same time.

        Args:
            texts: the texts, tokenised once each.
            masked_spans: per text, character spans `(start, end)` whose tokens are all replaced by the
                mask token in a single pass.
            scored_spans: per text, the character span whose tokens are scored; its tokens are masked too.

        Returns:
            One array per text (input order) with the log-probability of each scored token.
        """
        if not len(texts) == len(masked_spans) == len(scored_spans):
            raise DataFormatError(
                f"{len(texts)} texts, {len(masked_spans)} masked-span lists and {len(scored_spans)} scored "
                "spans; give one of each per text"
            )
        check_texts(texts)
        requests = []
        for index, (tokens, masks, scored) in enumerate(
            zip(tokenise(self.tokenizer, texts, add_special_tokens=True), masked_spans, scored_spans, strict=True)
        ):
            scored_tokens = tokens.covering(*scored)
            if not scored_tokens:
                raise DataFormatError(f"text {index} ({texts[index]!r}) has no tokens in the scored span {scored}")
            masked = sorted({i for span in (*masks, scored) for i in tokens.covering(*span)})
            requests.append(_Request(tokens.ids, tuple(masked), tuple(scored_tokens)))
        return self._measure(requests, target_logprobs)

    # --- text preparation -----------------------------------------------------------------------------

    def _one_at_a_time(
        self, contexts: Sequence[str], continuations: Sequence[str], measure: Measure, separator: str = " "
    ) -> list[np.ndarray]:
        """Mask each of the continuation's tokens in turn; gather the scores back into one array per text."""
        requests, counts = [], []
        for tokens, covered in continuation_tokens(self.tokenizer, contexts, continuations, separator, True):
            requests.extend(_Request(tokens.ids, self._masks(tokens, covered, p), (p,)) for p in covered)
            counts.append(len(covered))
        values = np.concatenate(self._measure(requests, measure))  # one value per request
        return np.split(values, np.cumsum(counts)[:-1])

    def _masks(self, tokens: TokenisedText, scored: Sequence[int], position: int) -> tuple[int, ...]:
        """The positions masked to score `position`: itself, and under `word-l2r` the later scored pieces
        of its word."""
        word = tokens.words[position]
        if self.pll == "original" or word is None:
            return (position,)
        return (position, *(later for later in scored if later > position and tokens.words[later] == word))

    # --- the compute core -----------------------------------------------------------------------------

    def _measure_distinct(self, requests: Sequence[_Request], measure: Measure) -> list[np.ndarray]:
        """`measure` at each request's scored tokens with its masked positions masked, input order."""
        order = sorted(range(len(requests)), key=lambda i: len(requests[i].ids))
        results: list[np.ndarray] = [np.empty(0)] * len(requests)
        with torch.inference_mode():
            for begin in range(0, len(order), self.batch_size):
                chunk = order[begin : begin + self.batch_size]
                for index, values in zip(chunk, self._forward([requests[i] for i in chunk], measure), strict=True):
                    results[index] = values
        return results

    def _forward(self, requests: Sequence[_Request], measure: Measure) -> list[np.ndarray]:
        width = max(len(request.ids) for request in requests)
        ids = torch.full((len(requests), width), self._pad, dtype=torch.long)
        mask = torch.zeros((len(requests), width), dtype=torch.long)
        rows, positions, targets = [], [], []
        for row, request in enumerate(requests):
            ids[row, : len(request.ids)] = torch.tensor(request.ids, dtype=torch.long)
            mask[row, : len(request.ids)] = 1
            ids[row, list(request.masked)] = self._mask
            rows.extend([row] * len(request.scored))
            positions.extend(request.scored)
            targets.extend(request.ids[position] for position in request.scored)
        rows_at = torch.tensor(rows, device=self.device)
        positions_at = torch.tensor(positions, device=self.device)
        inputs = {"input_ids": ids.to(self.device), "attention_mask": mask.to(self.device)}
        if self._head is not None:
            # The vocabulary projection at the scored positions only: most of a pass's work for a small model.
            hidden = self._encoder(**inputs).last_hidden_state
            logits = self._head(hidden[rows_at, positions_at])
        else:
            logits = self.model(**inputs).logits[rows_at, positions_at]
        values = measure(logits, torch.tensor(targets, device=self.device)).cpu().numpy()
        split = np.cumsum([len(request.scored) for request in requests])[:-1]
        return np.split(values, split)


def _encoder_and_head(model: "PreTrainedModel") -> tuple[torch.nn.Module | None, torch.nn.Module | None]:
    """The encoder and the masked-LM head of a BERT- or RoBERTa-family model, which score apart; else (None, None).

    Their heads (`cls`, `lm_head`) map hidden states of any leading shape to vocabulary logits.
    """
    encoder = getattr(model, model.base_model_prefix, None)
    for name in ("cls", "lm_head"):
        head = getattr(model, name, None)
        if encoder is not None and isinstance(head, torch.nn.Module):
            return encoder, head
    return None, None


def _checked_pll(pll: str, tokenizer: "PreTrainedTokenizerBase") -> PLLMetric:
    """`pll` if it is a known metric the tokenizer can serve (`word-l2r` needs its word ids)."""
    if pll not in PLL_METRICS:
        raise UnknownNameError("PLL metric", pll, PLL_METRICS)
    if pll == "word-l2r" and all(word is None for word in tokenise(tokenizer, ["a word"], False)[0].words):
        raise ResourceMissingError(
            f"{type(tokenizer).__name__} gives no word ids, which pll='word-l2r' masks by; "
            "load a fast tokenizer with a pre-tokenizer, or pass pll='original'"
        )
    return pll  # type: ignore[return-value]

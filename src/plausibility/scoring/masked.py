"""Pseudo-log-likelihoods of texts and continuations under a masked language model (Salazar et al., 2020)."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.scoring.loading import load_lm, pick_device, ready_model
from plausibility.scoring.protocols import Reduction
from plausibility.scoring.reduction import check_reduction, reduce_logprobs
from plausibility.scoring.tokens import TokenisedText, check_texts, join, tokenise

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase


@dataclass(frozen=True, slots=True)
class _Request:
    """One forward pass: `ids` with the positions `masked` replaced by the mask token; `scored` ⊆ `masked`."""

    ids: tuple[int, ...]
    masked: tuple[int, ...]
    scored: tuple[int, ...]


class MaskedLMScorer:
    """`LanguageModelScorer` over any Hugging Face masked LM (`AutoModelForMaskedLM`).

    Scores are pseudo-log-likelihoods (Salazar et al., 2020, "Masked Language Model Scoring"): each token
    is masked in turn, everything else visible, and scored by the model's log-probability of the true
    token at the mask. A text is tokenised once with the tokenizer's special tokens (`<s>`, `</s>`),
    which are never scored. For `log P(continuation | context)` only the continuation's tokens are masked,
    one at a time, with the context visible. `masked_logprobs` masks several positions at once.
    """

    def __init__(self, model: str, batch_size: int = 32, device: str | None = None) -> None:
        """Load `model`, a Hugging Face id or a local folder with a masked-LM head.

        Args:
            model: the masked LM to load (no masked LM ships offline).
            batch_size: sequences per forward pass (a text of n tokens takes n sequences).
            device: `cpu`, `cuda`, `cuda:1`...; the first GPU when there is one by default.
        """
        tokenizer, network = load_lm(model, "masked")
        self._attach(network, tokenizer, batch_size, pick_device(device))

    @classmethod
    def from_model(
        cls,
        model: "PreTrainedModel",
        tokenizer: "PreTrainedTokenizerBase",
        batch_size: int = 32,
        device: str | None = None,
    ) -> "MaskedLMScorer":
        """Wrap a model object already in memory; it stays on its device unless `device` is given."""
        scorer = cls.__new__(cls)
        scorer._attach(model, tokenizer, batch_size, torch.device(device) if device else model.device)
        return scorer

    def _attach(
        self,
        model: "PreTrainedModel",
        tokenizer: "PreTrainedTokenizerBase",
        batch_size: int,
        device: torch.device,
    ) -> None:
        model = ready_model(model, tokenizer, batch_size, device)
        if tokenizer.mask_token_id is None:
            raise ResourceMissingError(
                f"tokenizer of {model.name_or_path or type(model).__name__} has no mask token; "
                "a masked LM scorer needs one (use CausalLMScorer for left-to-right models)"
            )
        self.tokenizer = tokenizer
        self.batch_size = batch_size
        self.device = device
        self.model = model
        self._mask = int(tokenizer.mask_token_id)
        self._pad = int(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.mask_token_id)

    # --- public verbs ---------------------------------------------------------------------------------

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Pseudo-log-probability of every (non-special) token of each text, each masked in turn."""
        return self._one_at_a_time([""] * len(texts), texts)

    def text_logprob(self, texts: Sequence[str], reduction: Reduction = "sum") -> np.ndarray:
        """Pseudo-log-likelihood of each whole text, summed (or averaged) over its tokens."""
        check_reduction(reduction)
        return reduce_logprobs(self.token_logprobs(texts), reduction)

    def conditional_logprob(
        self, contexts: Sequence[str], continuations: Sequence[str], reduction: Reduction = "sum"
    ) -> np.ndarray:
        """Pseudo-log-likelihood of each continuation's tokens, masked one at a time, context visible."""
        check_reduction(reduction)
        return reduce_logprobs(self._one_at_a_time(contexts, continuations), reduction)

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
        return self._logprobs(requests)

    # --- text preparation -----------------------------------------------------------------------------

    def _one_at_a_time(self, contexts: Sequence[str], continuations: Sequence[str]) -> list[np.ndarray]:
        """Mask each of the continuation's tokens in turn; gather the scores back into one array per text."""
        if len(contexts) != len(continuations):
            raise DataFormatError(
                f"{len(contexts)} contexts but {len(continuations)} continuations; give one context per continuation"
            )
        check_texts(continuations, "continuation")
        joined = [join(context, continuation) for context, continuation in zip(contexts, continuations, strict=True)]
        tokenised: list[TokenisedText] = tokenise(self.tokenizer, [text for text, _ in joined], add_special_tokens=True)
        requests, owners = [], []
        for index, ((text, start), tokens) in enumerate(zip(joined, tokenised, strict=True)):
            covered = tokens.covering(start, len(text))
            if not covered:
                raise DataFormatError(f"continuation {index} ({continuations[index]!r}) has no tokens to score")
            requests.extend(_Request(tokens.ids, (position,), (position,)) for position in covered)
            owners.extend([index] * len(covered))
        values = self._logprobs(requests)
        per_text: list[list[float]] = [[] for _ in continuations]
        for owner, value in zip(owners, values, strict=True):
            per_text[owner].append(float(value[0]))
        return [np.array(scores, dtype=np.float64) for scores in per_text]

    # --- the compute core -----------------------------------------------------------------------------

    def _logprobs(self, requests: Sequence[_Request]) -> list[np.ndarray]:
        """Log-probabilities of each request's scored tokens with its masked positions masked, input order."""
        order = sorted(range(len(requests)), key=lambda i: len(requests[i].ids))
        results: list[np.ndarray] = [np.empty(0)] * len(requests)
        with torch.inference_mode():
            for begin in range(0, len(order), self.batch_size):
                chunk = order[begin : begin + self.batch_size]
                for index, values in zip(chunk, self._forward([requests[i] for i in chunk]), strict=True):
                    results[index] = values
        return results

    def _forward(self, requests: Sequence[_Request]) -> list[np.ndarray]:
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
        logits = self.model(input_ids=ids.to(self.device), attention_mask=mask.to(self.device)).logits
        rows_at = torch.tensor(rows, device=self.device)
        positions_at = torch.tensor(positions, device=self.device)
        picked = logits[rows_at, positions_at].float().log_softmax(-1)  # (n_scored, V)
        chosen = picked[torch.arange(len(targets), device=self.device), torch.tensor(targets, device=self.device)]
        values = chosen.double().cpu().numpy()
        split = np.cumsum([len(request.scored) for request in requests])[:-1]
        return np.split(values, split)

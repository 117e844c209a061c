"""Log-probabilities of texts and continuations under a causal (left-to-right) language model."""

import copy
import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from plausibility.errors import DataFormatError, ResourceMissingError
from plausibility.resources import DEFAULT_CAUSAL_LM
from plausibility.scoring.loading import load_lm, pick_device, ready_model
from plausibility.scoring.protocols import Reduction
from plausibility.scoring.reduction import check_reduction, reduce_logprobs
from plausibility.scoring.tokens import check_texts, join, tokenise

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase


@dataclass(frozen=True, slots=True)
class _Request:
    """One sequence to score: `prefix` (BOS and context tokens, unscored) followed by `scored` tokens."""

    prefix: tuple[int, ...]
    scored: tuple[int, ...]


# The document boundary GPT-2-style models saw before every pretraining text. Chat-tuned tokenizers may name a
# chat-turn marker as BOS instead (SmolLM2-Instruct: `<|im_start|>`), which measurably hurts scoring: with the
# offline LM, zero-shot PMI reaches Pep-3k test AUC .570 after `<|im_start|>` and .640 after `<|endoftext|>`.
DOCUMENT_START = "<|endoftext|>"


def start_token_id(tokenizer: "PreTrainedTokenizerBase") -> int | None:
    """The token prepended to every text: the document boundary if known, else BOS, else end of sequence."""
    document_start = tokenizer.get_vocab().get(DOCUMENT_START)
    if document_start is not None:
        return int(document_start)
    return tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id


class CausalLMScorer:
    """`LanguageModelScorer` over any Hugging Face causal LM (`AutoModelForCausalLM`).

    A text is tokenised once without the tokenizer's own special tokens, and one beginning-of-sequence
    token (`<|endoftext|>` where the vocabulary has it, else the tokenizer's BOS, else its end-of-sequence
    token; see `start_token_id`) is prepended, so its first token is scored
    too. A continuation's tokens are those of the joined text that reach into the continuation's
    characters, the joining space included; a token that carries that space (" The") is scored with the
    continuation.

    Distinct unscored prefixes (BOS and context) run once each, `batch_size` at a time, and their
    key-value cache is shared by every continuation that follows them, so three continuations of one
    context cost one context pass; the continuations then run in batches sorted by length.
    """

    def __init__(self, model: str = DEFAULT_CAUSAL_LM, batch_size: int = 32, device: str | None = None) -> None:
        """Load `model` (a Hugging Face id or a local folder; the default is the offline causal LM).

        Args:
            model: the causal LM to load.
            batch_size: sequences per forward pass.
            device: `cpu`, `cuda`, `cuda:1`...; the first GPU when there is one by default.
        """
        tokenizer, network = load_lm(model, "causal")
        self._attach(network, tokenizer, batch_size, pick_device(device))

    @classmethod
    def from_model(
        cls,
        model: "PreTrainedModel",
        tokenizer: "PreTrainedTokenizerBase",
        batch_size: int = 32,
        device: str | None = None,
    ) -> "CausalLMScorer":
        """Wrap a model object already in memory (e.g. a small model built from a config).

        The model stays on its device unless `device` is given.
        """
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
        bos = start_token_id(tokenizer)
        if bos is None:
            raise ResourceMissingError(
                f"tokenizer of {model.name_or_path or type(model).__name__} has neither a BOS nor an "
                "end-of-text token; set tokenizer.bos_token before scoring"
            )
        self.tokenizer = tokenizer
        self.batch_size = batch_size
        self.device = device
        self.model = model
        self._bos = int(bos)
        # Any id works for padding: padded positions are masked out and never scored.
        self._pad = int(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else bos)
        parameters = inspect.signature(model.forward).parameters
        # transformers renamed `past_key_values` to `cache` during 5.x; accept either.
        self._cache_argument = "cache" if "cache" in parameters else "past_key_values"
        self._trims_logits = "logits_to_keep" in parameters

    # --- public verbs ---------------------------------------------------------------------------------

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Natural-log probability of every token of each text (float64, one array per text, input order)."""
        check_texts(texts)
        return self._logprobs(self._requests([""] * len(texts), texts))

    def text_logprob(self, texts: Sequence[str], reduction: Reduction = "sum") -> np.ndarray:
        """Log-probability of each whole text, summed (or averaged) over its tokens."""
        check_reduction(reduction)
        return reduce_logprobs(self.token_logprobs(texts), reduction)

    def conditional_logprob(
        self, contexts: Sequence[str], continuations: Sequence[str], reduction: Reduction = "sum"
    ) -> np.ndarray:
        """`log P(continuation | context)` for each aligned pair, over the continuation's tokens only."""
        check_reduction(reduction)
        return reduce_logprobs(self._logprobs(self._requests(contexts, continuations)), reduction)

    # --- text preparation -----------------------------------------------------------------------------

    def _requests(self, contexts: Sequence[str], continuations: Sequence[str]) -> list[_Request]:
        if len(contexts) != len(continuations):
            raise DataFormatError(
                f"{len(contexts)} contexts but {len(continuations)} continuations; give one context per continuation"
            )
        check_texts(continuations, "continuation")
        joined = [join(context, continuation) for context, continuation in zip(contexts, continuations, strict=True)]
        tokenised = tokenise(self.tokenizer, [text for text, _ in joined], add_special_tokens=False)
        requests = []
        for index, ((text, start), tokens) in enumerate(zip(joined, tokenised, strict=True)):
            covered = tokens.covering(start, len(text))
            if not covered:
                raise DataFormatError(f"continuation {index} ({continuations[index]!r}) has no tokens to score")
            ids = (self._bos, *tokens.ids)
            first = covered[0] + 1  # + 1 for the prepended BOS
            requests.append(_Request(prefix=ids[:first], scored=ids[first:]))
        return requests

    # --- the compute core -----------------------------------------------------------------------------

    def _logprobs(self, requests: Sequence[_Request]) -> list[np.ndarray]:
        """Log-probabilities of each request's scored tokens, in input order."""
        groups: dict[tuple[int, ...], list[int]] = {}
        for index, request in enumerate(requests):
            groups.setdefault(request.prefix, []).append(index)
        # Prefixes of similar length run together (little padding); so do continuations, sorted by length
        # within the prefixes of one batch.
        prefixes = sorted(groups, key=lambda prefix: (len(prefix), prefix))
        results: list[np.ndarray] = [np.empty(0)] * len(requests)
        with torch.inference_mode():
            for begin in range(0, len(prefixes), self.batch_size):
                chunk = prefixes[begin : begin + self.batch_size]
                members = sorted((i for prefix in chunk for i in groups[prefix]), key=lambda i: len(requests[i].scored))
                for index, values in zip(members, self._forward(chunk, [requests[i] for i in members]), strict=True):
                    results[index] = values
        return results

    def _padded(self, sequences: Sequence[Sequence[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        """Right-padded ids and their attention mask, both (batch, longest)."""
        width = max(len(sequence) for sequence in sequences)
        ids = torch.full((len(sequences), width), self._pad, dtype=torch.long)
        mask = torch.zeros((len(sequences), width), dtype=torch.long)
        for row, sequence in enumerate(sequences):
            ids[row, : len(sequence)] = torch.tensor(sequence, dtype=torch.long)
            mask[row, : len(sequence)] = 1
        return ids.to(self.device), mask.to(self.device)

    def _forward(self, prefixes: Sequence[tuple[int, ...]], requests: Sequence[_Request]) -> list[np.ndarray]:
        """Run each prefix once, then every request's scored tokens on its prefix's cache, `batch_size` at a time."""
        prefix_ids, prefix_mask = self._padded(prefixes)  # (n_prefixes, P)
        lengths = prefix_mask.sum(1)  # (n_prefixes,)
        width = prefix_ids.shape[1]
        # Only the logits at each prefix's last token are needed (they score the first continuation token).
        keep = width - int(lengths.min()) + 1 if self._trims_logits else width
        extra = {"logits_to_keep": keep} if self._trims_logits else {}
        output = self.model(input_ids=prefix_ids, attention_mask=prefix_mask, use_cache=True, **extra)
        ends = lengths - 1 - (width - keep)  # each prefix's last token among the kept logits
        last = output.logits[torch.arange(len(prefixes), device=self.device), ends]  # (n_prefixes, V)
        cache = output[self._cache_argument]

        prefix_row = {prefix: row for row, prefix in enumerate(prefixes)}
        values: list[np.ndarray] = []
        for begin in range(0, len(requests), self.batch_size):
            part = requests[begin : begin + self.batch_size]
            rows = torch.tensor([prefix_row[request.prefix] for request in part], device=self.device)
            logits = last[rows].unsqueeze(1)  # (batch, 1, V)
            # The last scored token is only a target, never an input.
            suffixes = [request.scored[:-1] for request in part]
            if any(suffixes):
                # Selecting rows rewrites a cache in place: later parts need the prefixes' cache intact.
                selected = cache if begin + self.batch_size >= len(requests) else copy.deepcopy(cache)
                selected.batch_select_indices(rows)  # one copy of its prefix's cache per request
                suffix_ids, suffix_mask = self._padded(suffixes)  # (batch, S)
                positions = lengths[rows].unsqueeze(1) + torch.arange(suffix_ids.shape[1], device=self.device)
                suffix_output = self.model(
                    input_ids=suffix_ids,
                    attention_mask=torch.cat([prefix_mask[rows], suffix_mask], dim=1),
                    position_ids=positions,
                    use_cache=True,
                    **{self._cache_argument: selected},
                )
                logits = torch.cat([logits, suffix_output.logits], dim=1)  # (batch, 1 + S, V)
            targets, _ = self._padded([request.scored for request in part])  # (batch, 1 + S)
            logits = logits.float()
            logprobs = logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1) - logits.logsumexp(-1)  # (batch, 1 + S)
            rows_values = logprobs.double().cpu().numpy()
            values.extend(rows_values[row, : len(request.scored)] for row, request in enumerate(part))
        return values

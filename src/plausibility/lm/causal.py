"""Log-probabilities of texts and continuations under a causal (left-to-right) language model."""

import copy
import inspect
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from plausibility.devices import DType, resolve_device, resolve_dtype
from plausibility.errors import ResourceMissingError
from plausibility.lm.loading import load_lm
from plausibility.lm.measures import Measure, target_logprobs, target_ranks, with_word_start_mass
from plausibility.lm.token_scorer import TokenScorer
from plausibility.lm.tokens import TokenisedText, check_texts, continuation_tokens, start_token_id, tokenise
from plausibility.lm.words import WordScores, beginning_of_word_ids, bow_corrected, continuation_words
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM


@dataclass(frozen=True, slots=True)
class _Request:
    """One sequence to score: `prefix` (BOS and context tokens, unscored) followed by `scored` tokens.

    With `prefix_scored`, the prefix's own tokens after BOS are scored too, before `scored`: a whole text
    split after the start it shares with other texts, so that start runs once for all of them.
    """

    prefix: tuple[int, ...]
    scored: tuple[int, ...]
    prefix_scored: bool = False

    @property
    def key(self) -> tuple[tuple[int, ...], bool]:
        """What requests that run on one prefix pass have in common."""
        return self.prefix, self.prefix_scored


def _common_length(first: Sequence[int], second: Sequence[int]) -> int:
    """How many tokens the two sequences share from their start."""
    for index, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            return index
    return min(len(first), len(second))


class CausalLMScorer(TokenScorer):
    """`LanguageModelScorer` over any Hugging Face causal LM (`AutoModelForCausalLM`).

    A text is tokenised once without the tokenizer's own special tokens, and one beginning-of-sequence
    token (`<|endoftext|>` where the vocabulary has it, else the tokenizer's BOS, else its end-of-sequence
    token; see `start_token_id`) is prepended, so its first token is scored
    too. A continuation's tokens are those of the joined text that reach into the continuation's
    characters, the joining space included; a token that carries that space (" The") is scored with the
    continuation.

    A context shared by several continuations runs once, `batch_size` contexts at a time, and its
    key-value cache is shared by every continuation that follows it, so three continuations of one
    context cost one context pass; the continuations then run in batches sorted by length. Whole texts
    that begin alike (minimal pairs, templated sentences) share their common start the same way, its
    tokens scored once for all of them. Other texts, and continuations whose context no other shares,
    run whole in one pass each, batched by length, with the vocabulary projected only at the positions
    that predict a scored token.

    `text_logprob`, `conditional_logprob`, `from_model` and minicons' names come from `TokenScorer`.
    """

    def __init__(
        self, model: str = DEFAULT_CAUSAL_LM, batch_size: int = 32, device: str | None = None, dtype: DType = "float32"
    ) -> None:
        """Load `model` (a Hugging Face id or a local folder; the default is the offline causal LM).

        Args:
            model: the causal LM to load.
            batch_size: sequences per forward pass.
            device: `cpu`, `cuda`, `cuda:N`, `mps` or `auto` (the default: the first GPU when there is one).
            dtype: `float32`, `bfloat16` or `float16`, the precision of the weights (log-probabilities in float32).
        """
        tokenizer, network = load_lm(model, "causal")
        self._attach(network, tokenizer, batch_size, resolve_device(device or "auto"), resolve_dtype(dtype))

    def _setup(self) -> None:
        """Read the start and padding tokens off the tokenizer, and which trimming of logits the model takes."""
        bos = start_token_id(self.tokenizer)
        if bos is None:
            raise ResourceMissingError(
                f"tokenizer of {self.model.name_or_path or type(self.model).__name__} has neither a BOS nor an "
                "end-of-text token; set tokenizer.bos_token before scoring"
            )
        self._bos = int(bos)
        # Any id works for padding: padded positions are masked out and never scored.
        pad = self.tokenizer.pad_token_id
        self._pad = int(pad if pad is not None else bos)
        parameters = inspect.signature(self.model.forward).parameters
        # transformers renamed `past_key_values` to `cache` during 5.x; accept either.
        self._cache_argument = "cache" if "cache" in parameters else "past_key_values"
        self._trims_logits = "logits_to_keep" in parameters
        self._keeps_positions = self._trims_logits and self._takes_position_mask()

    def _takes_position_mask(self) -> bool:
        """Whether `logits_to_keep` takes a boolean (batch, length) mask, returning logits at its positions only.

        transformers' own models do (from 5.x); a model that does not is scored through its full logits.
        """
        ids = torch.full((1, 2), self._bos, dtype=torch.long, device=self.device)
        keep = torch.tensor([[False, True]], device=self.device)
        try:
            with torch.inference_mode():
                logits = self.model(input_ids=ids, use_cache=False, logits_to_keep=keep).logits
        except (IndexError, RuntimeError, TypeError, ValueError):
            return False
        return logits.ndim == 2 and logits.shape[0] == 1

    # --- public verbs ---------------------------------------------------------------------------------

    def token_logprobs(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Natural-log probability of every token of each text (float64, one array per text, input order)."""
        check_texts(texts)
        return self._measure(self._requests([""] * len(texts), texts), target_logprobs)

    def conditional_token_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " "
    ) -> list[np.ndarray]:
        """Log-probability of each continuation token given its context (joined by `separator`), one array each."""
        return self._measure(self._requests(contexts, continuations, separator), target_logprobs)

    def token_ranks(self, texts: Sequence[str]) -> list[np.ndarray]:
        """Rank of every token of each text in the model's prediction at its position (1 = most probable)."""
        check_texts(texts)
        return self._measure(self._requests([""] * len(texts), texts), target_ranks)

    def token_names(self, texts: Sequence[str]) -> list[list[str]]:
        """Each text's tokens as strings, the unscored start token first (minicons' layout with `bos_token=True`)."""
        check_texts(texts)
        start = self.tokenizer.convert_ids_to_tokens(self._bos)
        return [
            [start, *self.tokenizer.convert_ids_to_tokens(list(tokens.ids))]
            for tokens in tokenise(self.tokenizer, texts, add_special_tokens=False)
        ]

    def conditional_word_logprobs(
        self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " ", bow_correction: bool = True
    ) -> list[WordScores]:
        """Log-probability of each word of each continuation given its context; an empty context scores a whole text.

        With `bow_correction` (and a tokenizer that marks word starts), a word's probability is that of its
        tokens times the probability that a new word follows it, divided by the probability that a new word
        began where it begins (Pimentel & Meister 2024): a word-level LM's probability, which the product of
        its tokens' is not when the space before a word sits on the word's first token. The divisions and
        multiplications cancel between neighbouring words, so a text's words sum to its token total plus
        the log-probability that a word follows the text. A whole text's first token is not divided (minicons
        does the same); a continuation's first word is, since its context ended a word.
        """
        check_texts(continuations, "continuation")
        tokenised = continuation_tokens(self.tokenizer, contexts, continuations, separator)
        requests = self._requests_of(tokenised)
        starts = self.word_start_ids if bow_correction else None
        if starts is None:
            token_values = self._measure(requests, target_logprobs)
        else:
            # One more position per text: what follows its last token (a sentinel target, never read).
            padded = [_Request(r.prefix, (*r.scored, self._bos), r.prefix_scored) for r in requests]
            measured = self._measure(padded, with_word_start_mass(torch.from_numpy(starts)))
            begins_word = np.zeros(max(len(self.tokenizer), int(starts.max()) + 1), dtype=bool)
            begins_word[starts] = True
            token_values = [
                bow_corrected(rows, np.array(r.scored), begins_word, has_context=bool(context))
                for rows, r, context in zip(measured, requests, contexts, strict=True)
            ]
        return continuation_words(tokenised, token_values, contexts, continuations, separator)

    @property
    def word_start_ids(self) -> np.ndarray | None:
        """The ids of the vocabulary items that begin a word (read once); None if the tokenizer marks no word
        start, and then no beginning-of-word correction applies."""
        if not hasattr(self, "_starts"):
            self._starts = beginning_of_word_ids(self.tokenizer)
        return self._starts

    # --- text preparation -----------------------------------------------------------------------------

    def _requests(self, contexts: Sequence[str], continuations: Sequence[str], separator: str = " ") -> list[_Request]:
        return self._requests_of(continuation_tokens(self.tokenizer, contexts, continuations, separator))

    def _requests_of(self, tokenised: Sequence[tuple[TokenisedText, list[int]]]) -> list[_Request]:
        """One request per joined text: BOS and the context's tokens unscored, then the continuation's."""
        requests = []
        for tokens, covered in tokenised:
            ids = (self._bos, *tokens.ids)
            first = covered[0] + 1  # + 1 for the prepended BOS
            requests.append(_Request(prefix=ids[:first], scored=ids[first:]))
        return requests

    # --- the compute core -----------------------------------------------------------------------------

    def _measure_distinct(self, requests: Sequence[_Request], measure: Measure) -> list[np.ndarray]:
        """`measure` at each request's scored tokens, one array per request, in input order.

        A prefix is worth running once for several requests only when it is longer than the start token
        and more than one request shares it: a context, or the start that whole texts have in common
        (minimal pairs often differ only late). Every other request runs whole in one pass.
        """
        work = list(requests)
        for cut, members in self._common_starts([i for i, r in enumerate(requests) if len(r.prefix) == 1], requests):
            for i in members:
                ids = (*requests[i].prefix, *requests[i].scored)
                work[i] = _Request(ids[:cut], ids[cut:], prefix_scored=True)
        groups: dict[tuple[tuple[int, ...], bool], list[int]] = {}
        for index, request in enumerate(work):
            groups.setdefault(request.key, []).append(index)
        whole = [i for (prefix, _), members in groups.items() if len(prefix) == 1 or len(members) == 1 for i in members]
        shared = {key: members for key, members in groups.items() if len(key[0]) > 1 and len(members) > 1}
        results: list[np.ndarray] = [np.empty(0)] * len(requests)
        with torch.inference_mode():
            for batch in self._whole_batches(whole, requests):
                values = self._forward_whole([requests[i] for i in batch], measure)
                for index, scores in zip(batch, values, strict=True):
                    results[index] = scores
            # Prefixes of similar length run together (little padding); so do continuations, sorted by length
            # within the prefixes of one batch.
            keys = sorted(shared, key=lambda key: (len(key[0]), key))
            for begin in range(0, len(keys), self.batch_size):
                chunk = keys[begin : begin + self.batch_size]
                members = sorted((i for key in chunk for i in shared[key]), key=lambda i: len(work[i].scored))
                part = [work[i] for i in members]
                for index, values in zip(members, self._forward_shared(chunk, part, measure), strict=True):
                    results[index] = values
        return results

    @staticmethod
    def _common_starts(indices: Sequence[int], requests: Sequence[_Request]) -> list[tuple[int, list[int]]]:
        """Whole texts that begin with the same tokens, and where to cut them: `(prefix length, members)`.

        Texts in token order are taken greedily into runs: a text joins the run when the tokens it shares
        with the run's start save at least what shortening that start costs the run's members. Each cut
        leaves every member at least one token after it.
        """
        runs: list[tuple[int, list[int]]] = []
        members: list[int] = []
        cut = 0  # tokens after BOS that the run's members share
        for i in sorted(indices, key=lambda i: requests[i].scored):
            tokens = requests[i].scored
            if members:
                shared = min(cut, _common_length(requests[members[0]].scored, tokens), len(tokens) - 1)
                # A lone first member's cut is only provisional: shortening it costs nothing yet.
                if shared >= 1 and (len(members) == 1 or shared >= (cut - shared) * len(members)):
                    members.append(i)
                    cut = shared
                    continue
                runs.append((cut, members))
            members, cut = [i], len(tokens) - 1
        if members:
            runs.append((cut, members))
        return [(cut + 1, run) for cut, run in runs if len(run) > 1]  # + 1: the prefix holds BOS

    def _whole_batches(self, indices: Sequence[int], requests: Sequence[_Request]) -> list[list[int]]:
        """`indices` sorted by length, in batches of `batch_size` requests."""
        order = sorted(indices, key=lambda i: len(requests[i].prefix) + len(requests[i].scored))
        return [order[begin : begin + self.batch_size] for begin in range(0, len(order), self.batch_size)]

    def _padded(self, sequences: Sequence[Sequence[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        """Right-padded ids and their attention mask, both (batch, longest)."""
        width = max(len(sequence) for sequence in sequences)
        ids = torch.full((len(sequences), width), self._pad, dtype=torch.long)
        mask = torch.zeros((len(sequences), width), dtype=torch.long)
        for row, sequence in enumerate(sequences):
            ids[row, : len(sequence)] = torch.tensor(sequence, dtype=torch.long)
            mask[row, : len(sequence)] = 1
        return ids.to(self.device), mask.to(self.device)

    def _forward_whole(self, requests: Sequence[_Request], measure: Measure) -> list[np.ndarray]:
        """One pass over each request's prefix and scored tokens; logits only where a scored token is predicted."""
        # The last scored token is only a target, never an input.
        ids, mask = self._padded([(*request.prefix, *request.scored[:-1]) for request in requests])  # (batch, L)
        predicts = torch.zeros(ids.shape, dtype=torch.bool)  # positions whose next token is scored
        for row, request in enumerate(requests):
            predicts[row, len(request.prefix) - 1 : len(request.prefix) - 1 + len(request.scored)] = True
        predicts = predicts.to(self.device)
        if self._keeps_positions:
            logits = self.model(input_ids=ids, attention_mask=mask, use_cache=False, logits_to_keep=predicts).logits
        else:
            logits = self.model(input_ids=ids, attention_mask=mask, use_cache=False).logits[predicts]
        targets = torch.tensor([token for request in requests for token in request.scored], device=self.device)
        values = measure(logits, targets).cpu().numpy()  # (n_scored,), rows in request order
        return np.split(values, np.cumsum([len(request.scored) for request in requests])[:-1])

    def _forward_shared(
        self, keys: Sequence[tuple[tuple[int, ...], bool]], requests: Sequence[_Request], measure: Measure
    ) -> list[np.ndarray]:
        """Run each prefix once, then every request's scored tokens on its prefix's cache, `batch_size` at a time."""
        prefixes = [prefix for prefix, _ in keys]
        prefix_ids, prefix_mask = self._padded(prefixes)  # (n_prefixes, P)
        lengths = prefix_mask.sum(1)  # (n_prefixes,)
        width = prefix_ids.shape[1]
        # Only the logits at each prefix's last token are needed (they score the first continuation token),
        # unless the prefix's own tokens are scored too.
        scores_prefix = any(prefix_scored for _, prefix_scored in keys)
        keep = width - int(lengths.min()) + 1 if self._trims_logits and not scores_prefix else width
        extra = {"logits_to_keep": keep} if self._trims_logits else {}
        output = self.model(input_ids=prefix_ids, attention_mask=prefix_mask, use_cache=True, **extra)
        ends = lengths - 1 - (width - keep)  # each prefix's last token among the kept logits
        last = output.logits[torch.arange(len(prefixes), device=self.device), ends]  # (n_prefixes, V)
        cache = output[self._cache_argument]
        own = {  # the values of each scored prefix's own tokens, predicted at positions 0 .. length - 2
            row: measure(output.logits[row, : len(prefix) - 1], prefix_ids[row, 1 : len(prefix)]).cpu().numpy()
            for row, (prefix, prefix_scored) in enumerate(keys)
            if prefix_scored
        }

        prefix_row = {key: row for row, key in enumerate(keys)}
        values: list[np.ndarray] = []
        for begin in range(0, len(requests), self.batch_size):
            part = requests[begin : begin + self.batch_size]
            rows = torch.tensor([prefix_row[request.key] for request in part], device=self.device)
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
            measured = measure(logits.flatten(0, 1), targets.flatten())  # a value, or a row of values, per token
            rows_values = measured.view(*targets.shape, *measured.shape[1:]).cpu().numpy()
            for row, request in enumerate(part):
                scored = rows_values[row, : len(request.scored)]
                values.append(np.concatenate([own[int(rows[row])], scored]) if request.prefix_scored else scored)
        return values

"""Text preparation for the scorers: token ids with character offsets, and the tokens a character span covers."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plausibility.errors import DataFormatError, ResourceMissingError

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerBase

# Tokenised in slices so that a long input never builds one huge encoding in memory.
_TOKENISE_BATCH = 1024


@dataclass(frozen=True, slots=True)
class TokenisedText:
    """One text's token ids, the character span `(start, end)` of each, which are special tokens, and the
    tokenizer's word of each (its pre-tokenizer's unit; None for a special token)."""

    ids: tuple[int, ...]
    offsets: tuple[tuple[int, int], ...]
    special: tuple[bool, ...]
    words: tuple[int | None, ...]

    def covering(self, start: int, end: int) -> list[int]:
        """Indices of the non-special tokens whose characters overlap `[start, end)`, in order.

        Overlap (not containment) decides, so a token that straddles a boundary, such as a byte-level
        BPE token that carries the space before a word (" The"), belongs to the span it reaches into.
        """
        return [
            i
            for i, ((first, last), special) in enumerate(zip(self.offsets, self.special, strict=True))
            if not special and last > start and first < end
        ]


def require_fast(tokenizer: "PreTrainedTokenizerBase") -> None:
    """Fail unless the tokenizer reports character offsets (only the Rust-backed "fast" tokenizers do)."""
    if not tokenizer.is_fast:
        raise ResourceMissingError(
            f"{type(tokenizer).__name__} gives no character offsets; load the model's fast tokenizer "
            "(AutoTokenizer.from_pretrained(..., use_fast=True), needs a tokenizer.json)"
        )


def check_texts(texts: Sequence[str], role: str = "text") -> None:
    """Reject empty or whitespace-only texts, naming the first one: they have no tokens to score."""
    for index, text in enumerate(texts):
        if not isinstance(text, str) or not text.strip():
            raise DataFormatError(f"{role} {index} is empty ({text!r}); give a non-empty string")


def join(context: str, continuation: str, separator: str = " ") -> tuple[str, int]:
    """The text `context + separator + continuation` and where the continuation's part starts: at the separator.

    The separator belongs to the continuation, so a token that carries it (" The", or a lone space token
    when the vocabulary lacks the word with its space) is scored with the continuation, as a left-to-right
    reading of the joined text would. An empty context gives the continuation alone, starting at 0.
    """
    if not context:
        return continuation, 0
    return f"{context}{separator}{continuation}", len(context)


def tokenise(
    tokenizer: "PreTrainedTokenizerBase", texts: Sequence[str], add_special_tokens: bool
) -> list[TokenisedText]:
    """Tokenise each text once, keeping offsets; the order of `texts` is kept."""
    encoded: list[TokenisedText] = []
    for begin in range(0, len(texts), _TOKENISE_BATCH):
        batch = tokenizer(
            list(texts[begin : begin + _TOKENISE_BATCH]),
            add_special_tokens=add_special_tokens,
            return_offsets_mapping=True,
            return_special_tokens_mask=True,
        )
        for index, (ids, offsets, special) in enumerate(
            zip(batch["input_ids"], batch["offset_mapping"], batch["special_tokens_mask"], strict=True)
        ):
            encoded.append(
                TokenisedText(
                    tuple(ids),
                    tuple((int(a), int(b)) for a, b in offsets),
                    tuple(map(bool, special)),
                    tuple(batch.word_ids(index)),
                )
            )
    return encoded


def continuation_tokens(
    tokenizer: "PreTrainedTokenizerBase",
    contexts: Sequence[str],
    continuations: Sequence[str],
    separator: str = " ",
    add_special_tokens: bool = False,
) -> list[tuple[TokenisedText, list[int]]]:
    """Each joined text tokenised once, with the indices of its continuation's tokens (see `join`), input order."""
    if len(contexts) != len(continuations):
        raise DataFormatError(
            f"{len(contexts)} contexts but {len(continuations)} continuations; give one context per continuation"
        )
    check_texts(continuations, "continuation")
    pairs = zip(contexts, continuations, strict=True)
    joined = [join(context, continuation, separator) for context, continuation in pairs]
    tokenised = tokenise(tokenizer, [text for text, _ in joined], add_special_tokens)
    spans = []
    for index, ((text, start), tokens) in enumerate(zip(joined, tokenised, strict=True)):
        covered = tokens.covering(start, len(text))
        if not covered:
            raise DataFormatError(f"continuation {index} ({continuations[index]!r}) has no tokens to score")
        spans.append((tokens, covered))
    return spans


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

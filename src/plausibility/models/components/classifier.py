"""The RoBERTa plausibility classifier: `<s> subject verb object </s>` to one logit (thesis 6.4.1)."""

from collections.abc import Sequence
from typing import Literal, get_args

import torch
from torch import nn

from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.resources.encoder import DEFAULT_ENCODER, load_encoder, mean_pooled
from plausibility.triple import Triple

Pooling = Literal["first", "last", "mean"]


class TripleClassifier(nn.Module):
    """Encoder over the space-joined lemmas; a linear layer maps one pooled final vector to a logit.

    Works with any `AutoModel` encoder (RoBERTa and BERT families), read at the first token, which the
    tokenizer's own special tokens frame (`<s> … </s>` or `[CLS] … [SEP]`), or as the mean over its tokens
    (a sentence-transformers encoder's own pooling); and with a decoder-only LM (the offline SmolLM2, Llama,
    GPT-2), read at the last token, the only one that has seen the whole event.
    """

    def __init__(
        self,
        backbone: str = DEFAULT_ENCODER,
        dropout: float = 0.1,
        pooling: Pooling = "first",
        trainable_layers: int | None = None,
    ) -> None:
        """Args:
        backbone: a Hugging Face id or local folder of an encoder, or the name of an offline causal LM
            (`SmolLM2-135M-Instruct`); the default is the offline MiniLM.
        dropout: dropout on the pooled vector before the linear layer.
        pooling: what the head reads: the `first` token's final vector (an encoder), the `mean` over
            the real tokens (how sentence-transformers encoders such as MiniLM were trained), or the `last`
            non-padding token's (a decoder-only LM).
        trainable_layers: train only the top N transformer blocks (with the final norm and the head),
            freezing the embeddings and the blocks below; None trains everything. Fewer trained blocks
            make a step cheaper, since nothing below them needs a gradient.
        """
        super().__init__()
        if pooling not in get_args(Pooling):
            raise UnknownNameError("pooling", pooling, get_args(Pooling))
        self.tokenizer, self.encoder = load_encoder(backbone)
        if self.tokenizer.pad_token is None:  # decoder-only tokenizers often have none; padding is masked anyway
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.tokenizer.padding_side = "right"  # `last` pooling finds the last real token from the mask
        self.pooling = pooling
        # The head reads one token's final vector itself; an unused pooler would only trouble DDP.
        self.encoder.pooler = None
        self.encoder.train()  # `from_pretrained` returns eval mode, which would switch dropout off in training
        if trainable_layers is not None:
            freeze_below(self.encoder, trainable_layers, backbone)
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(self.encoder.config.hidden_size, 1)

    def featurize(self, triples: Sequence[Triple], pad_to: int | None = None) -> dict[str, torch.Tensor]:
        """Token ids and attention mask, padded to the longest event, or cut and padded to `pad_to` tokens."""
        padding = {"padding": "max_length", "max_length": pad_to, "truncation": True} if pad_to else {"padding": True}
        encoded = self.tokenizer([str(triple) for triple in triples], return_tensors="pt", **padding)
        return {"input_ids": encoded["input_ids"], "attention_mask": encoded["attention_mask"]}

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """One logit per event, shape (batch,)."""
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        return self.head(self.dropout(self.pooled(hidden, attention_mask))).squeeze(-1)  # (batch,)

    def pooled(self, hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """The vector the head reads: the first token's, the mean over real tokens, or the last real token's
        (right padding)."""
        if self.pooling == "first":
            return hidden[:, 0]
        if self.pooling == "mean":
            return mean_pooled(hidden, attention_mask)
        last = attention_mask.sum(dim=1) - 1
        return hidden[torch.arange(hidden.shape[0], device=hidden.device), last]


def transformer_blocks(encoder: nn.Module) -> nn.ModuleList | None:
    """The encoder's stack of blocks: `layers` (Llama family), `encoder.layer` (BERT family), `h` (GPT-2)."""
    for path in ("layers", "encoder.layer", "h"):
        try:
            blocks = encoder.get_submodule(path)
        except AttributeError:
            continue
        if isinstance(blocks, nn.ModuleList):
            return blocks
    return None


def freeze_below(encoder: nn.Module, trainable: int, backbone: str) -> None:
    """Freeze the embeddings and every block but the top `trainable` ones."""
    blocks = transformer_blocks(encoder)
    if blocks is None:
        raise DataFormatError(f"trainable_layers: cannot find the transformer blocks of {backbone}; leave it null")
    if not 0 < trainable <= len(blocks):
        raise DataFormatError(
            f"trainable_layers: {backbone} has {len(blocks)} blocks, got {trainable}; give 1 to {len(blocks)} or null"
        )
    for parameter in encoder.get_input_embeddings().parameters():
        parameter.requires_grad = False
    for block in blocks[: len(blocks) - trainable]:
        for parameter in block.parameters():
            parameter.requires_grad = False

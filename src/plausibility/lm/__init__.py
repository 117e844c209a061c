"""Language models over text: causal and masked scorers, token and text log-probabilities, SLOR."""

from typing import Literal

from plausibility.devices import DType
from plausibility.errors import DataFormatError, UnknownNameError
from plausibility.lm.protocol import DEFAULT_PLL, LanguageModelScorer, Reduction
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM

__all__ = ["LanguageModelScorer", "Reduction", "load_lm_scorer"]


def load_lm_scorer(
    name: str = DEFAULT_CAUSAL_LM,
    kind: Literal["causal", "masked"] | None = None,
    batch_size: int = 32,
    device: str | None = None,
    dtype: DType = "float32",
    pll: str | None = None,
) -> LanguageModelScorer:
    """A scorer for a model id or folder (default: the offline causal LM).

    Args:
        name: a Hugging Face id or local folder.
        kind: `causal` or `masked`; read from the model's config when not given.
        batch_size: sequences per forward pass.
        device: `cpu`, `cuda`, `cuda:N`, `mps` or `auto` (the default: the first GPU when there is one).
        dtype: `float32`, `bfloat16` or `float16`, the precision of the model's weights.
        pll: a masked LM's pseudo-log-likelihood, `word-l2r` (the default) or `original`; a causal LM takes none.
    """
    if kind is not None and kind not in ("causal", "masked"):
        raise UnknownNameError("language-model kind", kind, ("causal", "masked"))
    # Imported here: torch and transformers take seconds to import, and the protocols above must stay light.
    from plausibility.lm.causal import CausalLMScorer
    from plausibility.lm.loading import guess_kind
    from plausibility.lm.masked import MaskedLMScorer

    if (kind or guess_kind(name)) == "causal":
        if pll is not None:
            raise DataFormatError(f"{name} is a causal LM, which scores every token left to right; drop the PLL metric")
        return CausalLMScorer(name, batch_size=batch_size, device=device, dtype=dtype)
    return MaskedLMScorer(name, batch_size=batch_size, device=device, dtype=dtype, pll=pll or DEFAULT_PLL)

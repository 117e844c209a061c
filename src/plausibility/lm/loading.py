"""Loading a language model for scoring: which kind it is (causal or masked), and its weights."""

from typing import TYPE_CHECKING, Literal, get_args

from plausibility.errors import ResourceMissingError, UnknownNameError
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM, OFFLINE_CAUSAL_LMS, load_causal_lm
from plausibility.resources.hub import hub_model
from plausibility.resources.quiet import quiet_loading

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

LMKind = Literal["causal", "masked"]
LM_KINDS: tuple[str, ...] = get_args(LMKind)


def _missing(name: str, error: Exception) -> ResourceMissingError:
    return ResourceMissingError(
        f"language model {name!r} could not be loaded ({str(error).splitlines()[0]}); give a local model "
        f"folder, or a Hugging Face id where a model hub is reachable (offline default: {DEFAULT_CAUSAL_LM})"
    )


def guess_kind(name: str) -> LMKind:
    """`causal` or `masked`, read from the model's config: its architecture names, else its model type."""
    if name in OFFLINE_CAUSAL_LMS:
        return "causal"
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    try:
        config = AutoConfig.from_pretrained(hub_model(name))
    except (OSError, ValueError) as error:
        raise _missing(name, error) from error
    for architecture in config.architectures or ():
        if architecture.endswith(("ForCausalLM", "LMHeadModel")):
            return "causal"
        if architecture.endswith("ForMaskedLM"):
            return "masked"
    # Some types (BERT, RoBERTa) have both heads; a config that is not flagged as a decoder means masked.
    if config.model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES and not getattr(config, "is_decoder", False):
        return "masked"
    if config.model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES:
        return "causal"
    raise UnknownNameError("language-model kind for", f"{name} (model type {config.model_type})", LM_KINDS)


def load_lm(name: str, kind: LMKind) -> tuple["PreTrainedTokenizerBase", "PreTrainedModel"]:
    """Tokenizer and model (eval mode) of a causal or masked LM; the causal default is the offline one."""
    if kind not in LM_KINDS:
        raise UnknownNameError("language-model kind", kind, LM_KINDS)
    try:
        if kind == "causal":
            return load_causal_lm(name)
        from transformers import AutoModelForMaskedLM, AutoTokenizer

        path = hub_model(name)
        with quiet_loading():
            return AutoTokenizer.from_pretrained(path), AutoModelForMaskedLM.from_pretrained(path).eval()
    except (OSError, ValueError) as error:
        raise _missing(name, error) from error

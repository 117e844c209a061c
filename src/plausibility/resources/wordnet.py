"""WordNet 3.0 through NLTK's reader: an NLTK `wordnet` corpus if present, else Debian's files copied into the cache."""

import shutil
import warnings
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from plausibility.errors import ResourceMissingError
from plausibility.resources.paths import cache_dir, cached_folder
from plausibility.resources.quiet import libraries_may_speak

if TYPE_CHECKING:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

_DEBIAN_WORDNET = Path("/usr/share/wordnet")
_INSTALL_WORDNET = "apt-get install wordnet-base wordnet-sense-index (or nltk.download('wordnet'))"

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
    with warnings.catch_warnings():
        if not libraries_may_speak("nltk"):  # its note that WordNet is read without multilingual data, never used here
            warnings.filterwarnings("ignore", "The multilingual functions are not available", UserWarning)
        return WordNetCorpusReader(folder, None)

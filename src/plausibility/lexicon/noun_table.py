"""The precomputed WordNet noun table (lemma to senses, synset to parent and lemmas), built once and cached."""

from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from plausibility.atomic import atomic_write
from plausibility.resources.paths import cache_dir
from plausibility.resources.wordnet import load_wordnet

if TYPE_CHECKING:
    from nltk.corpus.reader.wordnet import Synset, WordNetCorpusReader

# Bump when the layout or the chain rule changes: a new name makes old caches unread rather than misread.
TABLE_VERSION = 2
ROOT = -1


@dataclass(frozen=True)
class NounTable:
    """Every WordNet noun synset as flat arrays; a synset's chain is its parents followed to the root.

    Attributes:
        synsets: synset names, e.g. "dentist.n.01"; a synset's row is its position here.
        parents: (n_synsets,) int32, the row of the next synset up the shortest chain, `ROOT` at the top.
        depths: (n_synsets,) int32, the length of that chain (1 for entity.n.01).
        lemma_starts: (n_synsets + 1,) int32; `lemmas[lemma_starts[i]:lemma_starts[i + 1]]` are row i's lemmas.
        lemmas: lemma text forms in WordNet's order, lowercased, "_" written as a space.
        words: every noun lemma of the index, as WordNet spells it ("health_professional").
        sense_starts: (n_words + 1,) int32; `senses[sense_starts[j]:sense_starts[j + 1]]` are word j's rows.
        senses: synset rows in WordNet's sense order (most frequent first).
        exceptions: WordNet's irregular noun forms (`noun.exc`), each line an inflected form and its bases
            ("children child"), so that morphology needs no reader.
    """

    synsets: tuple[str, ...]
    parents: np.ndarray
    depths: np.ndarray
    lemma_starts: np.ndarray
    lemmas: tuple[str, ...]
    words: tuple[str, ...]
    sense_starts: np.ndarray
    senses: np.ndarray
    exceptions: tuple[str, ...]


def hypernym_chain(synset: "Synset", memo: dict[str, tuple[str, ...]] | None = None) -> tuple[str, ...]:
    """Synset names from the root down to `synset` along the shortest hypernym path.

    Instance hypernyms count as hypernyms (as in NLTK's `hypernym_paths`). Among equally short paths the
    alphabetically first sequence of names wins: NLTK keeps pointers in sets, so its path order changes
    with PYTHONHASHSEED and "the first shortest path" would change from run to run.
    """
    memo = {} if memo is None else memo
    name = synset.name()
    if name not in memo:
        parents = synset.hypernyms() + synset.instance_hypernyms()
        candidates = [hypernym_chain(parent, memo) for parent in parents]
        memo[name] = min(candidates, key=lambda chain: (len(chain), chain)) + (name,) if candidates else (name,)
    return memo[name]


def _text_form(lemma: str) -> str:
    return lemma.replace("_", " ").lower()


def _read_index(wordnet: "WordNetCorpusReader") -> list[tuple[str, list[int]]]:
    """(lemma, synset offsets in sense order) for every line of `index.noun`."""
    entries = []
    with wordnet.open("index.noun") as lines:
        for line in lines:
            if line.startswith(" "):  # the licence header lines start with two spaces
                continue
            fields = line.split()
            # lemma pos synset_cnt p_cnt [ptr_symbol]*p_cnt sense_cnt tagsense_cnt [synset_offset]*synset_cnt
            n_synsets = int(fields[2])
            entries.append((fields[0], [int(offset) for offset in fields[-n_synsets:]]))
    return entries


def _read_exceptions(wordnet: "WordNetCorpusReader") -> list[str]:
    """The lines of `noun.exc` (an inflected form, then its bases), as NLTK's reader splits them."""
    with wordnet.open("noun.exc") as lines:
        return [" ".join(fields) for line in lines if (fields := line.split())]


def build_table(wordnet: "WordNetCorpusReader") -> NounTable:
    """Walk every noun synset of `wordnet` once and lay the hierarchy out as a `NounTable`."""
    nouns = sorted(wordnet.all_synsets("n"), key=lambda synset: synset.name())
    row = {synset.name(): i for i, synset in enumerate(nouns)}
    by_offset = {synset.offset(): i for i, synset in enumerate(nouns)}
    memo: dict[str, tuple[str, ...]] = {}
    parents = np.full(len(nouns), ROOT, dtype=np.int32)
    depths = np.zeros(len(nouns), dtype=np.int32)
    lemma_starts = [0]
    lemmas: list[str] = []
    for i, synset in enumerate(nouns):
        chain = hypernym_chain(synset, memo)
        depths[i] = len(chain)
        if len(chain) > 1:
            parents[i] = row[chain[-2]]
        lemmas.extend(_text_form(lemma) for lemma in synset.lemma_names())
        lemma_starts.append(len(lemmas))
    words, sense_starts, senses = [], [0], []
    for word, offsets in _read_index(wordnet):
        words.append(word)
        senses.extend(by_offset[offset] for offset in offsets)
        sense_starts.append(len(senses))
    return NounTable(
        synsets=tuple(synset.name() for synset in nouns),
        parents=parents,
        depths=depths,
        lemma_starts=np.asarray(lemma_starts, dtype=np.int32),
        lemmas=tuple(lemmas),
        words=tuple(words),
        sense_starts=np.asarray(sense_starts, dtype=np.int32),
        senses=np.asarray(senses, dtype=np.int32),
        exceptions=tuple(_read_exceptions(wordnet)),
    )


def pack_strings(strings: Iterable[str]) -> np.ndarray:
    """Strings as one newline-joined UTF-8 byte array (none contains a newline), so no pickle is needed."""
    return np.frombuffer("\n".join(strings).encode("utf-8"), dtype=np.uint8)


def unpack_strings(packed: np.ndarray) -> tuple[str, ...]:
    return tuple(packed.tobytes().decode("utf-8").split("\n")) if packed.size else ()


def save_arrays(path: Path, **arrays: np.ndarray) -> None:
    """Write arrays to `path` (.npz) through a temporary file, so readers never see half a file."""
    atomic_write(path, lambda stream: np.savez(stream, **arrays), binary=True)


# The fields of text, stored packed (`pack_strings`); the others are integer arrays, stored as they are.
_TEXT_FIELDS = ("synsets", "lemmas", "words", "exceptions")


def save_table(table: NounTable, path: Path) -> None:
    """Write `table` to `path` (.npz), atomically."""
    values = {field.name: getattr(table, field.name) for field in fields(NounTable)}
    save_arrays(path, **{name: pack_strings(v) if name in _TEXT_FIELDS else v for name, v in values.items()})


def read_table(path: Path) -> NounTable:
    """Read a table written by `save_table` (plain arrays; pickled objects are refused)."""
    with np.load(path, allow_pickle=False) as arrays:
        names = [field.name for field in fields(NounTable)]
        return NounTable(**{n: unpack_strings(arrays[n]) if n in _TEXT_FIELDS else arrays[n] for n in names})


def table_path() -> Path:
    return cache_dir() / "lexicon" / f"wordnet-nouns-v{TABLE_VERSION}.npz"


def load_table() -> NounTable:
    """The noun table of `plausibility.resources.load_wordnet()`, built and cached on first use."""
    path = table_path()
    if not path.is_file():
        save_table(build_table(load_wordnet()), path)
    return read_table(path)

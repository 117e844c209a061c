"""Word-sense disambiguation of a triple's subject and object: most frequent sense, or gloss similarity."""

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, get_args

import numpy as np

from plausibility.errors import UnknownNameError
from plausibility.lexicon.hierarchy import Hierarchy
from plausibility.lexicon.noun_table import pack_strings, save_arrays, unpack_strings
from plausibility.resources.encoder import DEFAULT_ENCODER, load_encoder, mean_pooled
from plausibility.resources.paths import cache_dir
from plausibility.resources.wordnet import load_wordnet
from plausibility.triple import Triple

WsdMethod = Literal["mfs", "gloss"]
WSD_METHODS: tuple[str, ...] = get_args(WsdMethod)
# Bump when `gloss_text` or the pooling changes, so cached gloss vectors are recomputed.
GLOSS_VERSION = 1

Senses = tuple[str | None, str | None]


class GlossEncoder:
    """Unit-length sentence vectors from an encoder: mean of the last layer over real tokens.

    Mean pooling plus normalisation is how all-MiniLM-L6-v2 (the offline default) was trained to embed
    sentences, so cosine similarity between a context and a gloss is meaningful without fine-tuning.
    """

    def __init__(self, encoder: str = DEFAULT_ENCODER, batch_size: int = 64, max_tokens: int = 64) -> None:
        self.tokenizer, self.model = load_encoder(encoder)
        self.model.eval()
        self.batch_size = batch_size
        self.max_tokens = max_tokens

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed each text; shape (len(texts), hidden), rows of length 1, input order.

        Texts are batched by length (less padding) and cut at `max_tokens`: a gloss's first words carry it.
        """
        import torch

        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors = np.zeros((len(texts), self.model.config.hidden_size))
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                rows = order[start : start + self.batch_size]
                batch = self.tokenizer(
                    [texts[i] for i in rows],
                    padding=True,
                    truncation=True,
                    max_length=self.max_tokens,
                    return_tensors="pt",
                )
                hidden = self.model(**batch).last_hidden_state  # (batch, tokens, hidden)
                pooled = mean_pooled(hidden, batch["attention_mask"])  # (batch, hidden)
                vectors[rows] = torch.nn.functional.normalize(pooled, dim=-1).numpy()
        return vectors


def gloss_text(synset: str) -> str:
    """What a sense is compared with: its lemmas, its definition and its usage examples."""
    entry = load_wordnet().synset(synset)
    lemmas = ", ".join(lemma.replace("_", " ") for lemma in entry.lemma_names())
    return "; ".join([f"{lemmas}: {entry.definition()}", *entry.examples()])


class Disambiguator:
    """Chooses the senses of the subject and object of triples, many at once.

    `mfs` takes WordNet's first sense. `gloss` embeds the triple as text ("bat eat insect") and every
    noun sense's gloss with the encoder, and takes the sense whose gloss is most similar (cosine; ties go
    to the more frequent sense). Gloss vectors are kept, so senses shared by many events are embedded
    once, and cached on disk per encoder (`gloss_cache_path`). The thesis used BERT-WSD, which has no
    offline release; this is our stand-in, not its method.

    Args:
        hierarchy: where senses come from.
        method: "mfs" (default) or "gloss".
        encoder: the encoder `gloss` uses; an id or folder, the offline MiniLM by default.
    """

    def __init__(self, hierarchy: Hierarchy, method: WsdMethod = "mfs", encoder: str = DEFAULT_ENCODER) -> None:
        if method not in WSD_METHODS:
            raise UnknownNameError("WSD method", method, WSD_METHODS)
        self.hierarchy = hierarchy
        self.method = method
        self.encoder_name = encoder
        self._encoder: GlossEncoder | None = None
        self._gloss_vectors: dict[str, np.ndarray] | None = None

    @property
    def gloss_cache_path(self) -> Path:
        """Where the gloss vectors of this encoder are kept between runs."""
        slug = re.sub(r"[^A-Za-z0-9.]+", "-", self.encoder_name).strip("-")
        return cache_dir() / "lexicon" / f"glosses-{slug}-v{GLOSS_VERSION}.npz"

    def __call__(self, triples: Sequence[Triple]) -> list[Senses]:
        """The (subject, object) synsets of each triple, in input order; None for a word WordNet lacks."""
        if self.method == "mfs":
            return [(self._first(t.subject), self._first(t.object)) for t in triples]
        return self._by_gloss(triples)

    def _first(self, word: str) -> str | None:
        senses = self.hierarchy.senses(word)
        return senses[0] if senses else None

    def _glosses(self, senses: set[str]) -> dict[str, np.ndarray]:
        """Vectors of all `senses`: from memory, then the disk cache, embedding (and caching) the rest."""
        if self._gloss_vectors is None:
            self._gloss_vectors = {}
            if self.gloss_cache_path.is_file():
                with np.load(self.gloss_cache_path, allow_pickle=False) as cached:
                    self._gloss_vectors = dict(zip(unpack_strings(cached["synsets"]), cached["vectors"], strict=True))
        new = sorted(senses - self._gloss_vectors.keys())
        if new:
            # float32 in memory as on disk: a fresh and a cached run must break near-ties the same way
            fresh = self._embed([gloss_text(s) for s in new]).astype(np.float32)
            self._gloss_vectors.update(zip(new, fresh, strict=True))
            names = sorted(self._gloss_vectors)
            vectors = np.stack([self._gloss_vectors[name] for name in names])
            save_arrays(self.gloss_cache_path, synsets=pack_strings(names), vectors=vectors)
        return self._gloss_vectors

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        if self._encoder is None:
            self._encoder = GlossEncoder(self.encoder_name)
        return self._encoder.encode(texts)

    def _by_gloss(self, triples: Sequence[Triple]) -> list[Senses]:
        candidates = {sense for t in triples for word in (t.subject, t.object) for sense in self.hierarchy.senses(word)}
        glosses = self._glosses(candidates)
        contexts = sorted({str(t) for t in triples})
        context_vectors = dict(zip(contexts, self._embed(contexts), strict=True))
        return [
            (
                self._closest(t.subject, context_vectors[str(t)], glosses),
                self._closest(t.object, context_vectors[str(t)], glosses),
            )
            for t in triples
        ]

    def _closest(self, word: str, context: np.ndarray, glosses: dict[str, np.ndarray]) -> str | None:
        senses = self.hierarchy.senses(word)
        if not senses:
            return None
        similarities = [float(glosses[sense] @ context) for sense in senses]
        return senses[int(np.argmax(similarities))]  # argmax keeps the first of equal values


def disambiguate(triple: Triple, hierarchy: Hierarchy, method: WsdMethod = "mfs") -> Senses:
    """Synsets of the subject and object of one triple (None where the word is not a WordNet noun).

    For many triples build one `Disambiguator` and call it on all of them: it embeds shared glosses once.
    """
    return Disambiguator(hierarchy, method)([triple])[0]

"""Word-sense disambiguation of a triple's subject and object: most frequent sense, or gloss similarity."""

from collections.abc import Sequence
from typing import Literal, get_args

import numpy as np

from plausibility.errors import UnknownNameError
from plausibility.lexicon.hierarchy import Hierarchy
from plausibility.resources import DEFAULT_ENCODER, load_encoder, load_wordnet
from plausibility.triple import Triple

WsdMethod = Literal["mfs", "gloss"]
WSD_METHODS: tuple[str, ...] = get_args(WsdMethod)

Senses = tuple[str | None, str | None]


class GlossEncoder:
    """Unit-length sentence vectors from an encoder: mean of the last layer over real tokens.

    Mean pooling plus normalisation is how all-MiniLM-L6-v2 (the offline default) was trained to embed
    sentences, so cosine similarity between a context and a gloss is meaningful without fine-tuning.
    """

    def __init__(self, encoder: str = DEFAULT_ENCODER, batch_size: int = 64) -> None:
        self.tokenizer, self.model = load_encoder(encoder)
        self.model.eval()
        self.batch_size = batch_size

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embed each text; shape (len(texts), hidden), rows of length 1, input order."""
        import torch

        chunks = []
        with torch.inference_mode():
            for start in range(0, len(texts), self.batch_size):
                batch = self.tokenizer(
                    list(texts[start : start + self.batch_size]), padding=True, truncation=True, return_tensors="pt"
                )
                hidden = self.model(**batch).last_hidden_state  # (batch, tokens, hidden)
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)  # (batch, tokens, 1)
                pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)  # (batch, hidden)
                chunks.append(torch.nn.functional.normalize(pooled, dim=-1).numpy())
        return np.concatenate(chunks).astype(np.float64) if chunks else np.zeros((0, 0))


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
    once. The thesis used BERT-WSD, which has no offline release; this is our stand-in, not its method.

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
        self._gloss_vectors: dict[str, np.ndarray] = {}

    def __call__(self, triples: Sequence[Triple]) -> list[Senses]:
        """The (subject, object) synsets of each triple, in input order; None for a word WordNet lacks."""
        if self.method == "mfs":
            return [(self._first(t.subject), self._first(t.object)) for t in triples]
        return self._by_gloss(triples)

    def _first(self, word: str) -> str | None:
        senses = self.hierarchy.senses(word)
        return senses[0] if senses else None

    def _by_gloss(self, triples: Sequence[Triple]) -> list[Senses]:
        if self._encoder is None:
            self._encoder = GlossEncoder(self.encoder_name)
        contexts = sorted({str(t) for t in triples})
        context_vectors = dict(zip(contexts, self._encoder.encode(contexts), strict=True))
        candidates = {sense for t in triples for word in (t.subject, t.object) for sense in self.hierarchy.senses(word)}
        new = sorted(candidates - self._gloss_vectors.keys())
        self._gloss_vectors.update(zip(new, self._encoder.encode([gloss_text(s) for s in new]), strict=True))
        return [
            (self._closest(t.subject, context_vectors[str(t)]), self._closest(t.object, context_vectors[str(t)]))
            for t in triples
        ]

    def _closest(self, word: str, context: np.ndarray) -> str | None:
        senses = self.hierarchy.senses(word)
        if not senses:
            return None
        similarities = [float(self._gloss_vectors[sense] @ context) for sense in senses]
        return senses[int(np.argmax(similarities))]  # argmax keeps the first of equal values


def disambiguate(triple: Triple, hierarchy: Hierarchy, method: WsdMethod = "mfs") -> Senses:
    """Synsets of the subject and object of one triple (None where the word is not a WordNet noun).

    For many triples build one `Disambiguator` and call it on all of them: it embeds shared glosses once.
    """
    return Disambiguator(hierarchy, method)([triple])[0]

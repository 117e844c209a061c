"""GloVe+MLP (Van de Cruys 2014): s, v, o embeddings from GloVe, concatenated, one hidden layer, one score."""

from collections.abc import Sequence

import torch
from torch import nn

from plausibility.corpus.artefacts import PAIR_COLUMNS, read_pairs
from plausibility.errors import DataFormatError
from plausibility.resources.glove import load_glove
from plausibility.resources.paths import resolve_data_path
from plausibility.triple import Triple

UNKNOWN = 0  # the row of words with neither a trained nor a GloVe vector: zeros, never trained


def pair_vocabulary(pairs: str) -> list[str]:
    """Every word of a pairs file (all six columns: subjects, verbs and objects), sorted."""
    table = read_pairs(resolve_data_path(pairs))
    return sorted({word for name in PAIR_COLUMNS for word in table.column(name).unique().to_pylist()})


class GloveMlpNet(nn.Module):
    """Scores an event as `w2 · tanh(W1 [e_s; e_v; e_o] + b1) + b2` (Van de Cruys 2014, section 3).

    Van de Cruys trains with a ranking loss over random embeddings; here the embeddings start from GloVe
    (as in the thesis's baseline, section 6.4.4) and the net trains with the shared pairwise BCE. One
    embedding table serves all three slots, as GloVe is one space. Words of the training pairs get trainable
    rows (GloVe where it has them, small random vectors otherwise); a word met only at inference takes its
    GloVe vector, untrained, which is what its row would hold had it been in the table, since training
    never updates the rows of unseen words. Words GloVe lacks share one zero vector.
    """

    def __init__(
        self,
        pairs: str = "training/pairs.parquet",
        hidden_size: int = 50,
        freeze_embeddings: bool = False,
        init_scale: float = 0.1,
    ) -> None:
        """Args:
        pairs: the training pairs whose words get trainable rows (a relative path is also looked up in the
            vendored data folder); only these GloVe rows are read from the memory-mapped matrix.
        hidden_size: width of the hidden layer.
        freeze_embeddings: keep the GloVe vectors fixed and train only the layers.
        init_scale: standard deviation of the random vectors of training words GloVe lacks.
        """
        super().__init__()
        glove = load_glove()
        self.words = pair_vocabulary(pairs)
        self.rows = {word: row for row, word in enumerate(self.words, start=1)}
        weight = torch.randn(len(self.words) + 1, glove.dim) * init_scale
        weight[UNKNOWN] = 0.0
        known = [(row, glove.index[word]) for word, row in self.rows.items() if word in glove.index]
        if known:
            rows, glove_rows = zip(*known, strict=True)
            # Sorted row numbers read the memory-mapped matrix in one forward sweep.
            order = sorted(range(len(glove_rows)), key=glove_rows.__getitem__)
            vectors = glove.vectors[[glove_rows[i] for i in order]]
            weight[[rows[i] for i in order]] = torch.from_numpy(vectors.copy())
        self.embeddings = nn.Embedding.from_pretrained(weight, freeze=freeze_embeddings, padding_idx=UNKNOWN)
        # Inference-only GloVe vectors of words outside the table, added as they are first met; rebuilt
        # rather than saved (not persistent), so a checkpoint's shapes depend on the training pairs only.
        self.register_buffer("unseen", torch.zeros(0, glove.dim), persistent=False)
        self.unseen_rows: dict[str, int] = {}
        self.hidden = nn.Linear(3 * glove.dim, hidden_size)
        self.output = nn.Linear(hidden_size, 1)

    def get_extra_state(self) -> list[str]:
        return self.words

    def set_extra_state(self, state: list[str]) -> None:
        # Rows are positions in the sorted vocabulary: the same shape from different pairs would misalign.
        if list(state) != self.words:
            raise DataFormatError(
                "the checkpoint was trained on other pairs than the net's `pairs` file; point `pairs` at its data"
            )

    def featurize(self, triples: Sequence[Triple]) -> dict[str, torch.Tensor]:
        """Row numbers of subject, verb and object, shape (batch, 3); rows past the table are `unseen`."""
        rows = [[self._row(t.subject), self._row(t.verb), self._row(t.object)] for t in triples]
        return {"word_ids": torch.tensor(rows, dtype=torch.long).reshape(len(triples), 3)}

    def forward(self, word_ids: torch.Tensor) -> torch.Tensor:
        """One score (a logit) per event, shape (batch,)."""
        n_rows = self.embeddings.num_embeddings
        vectors = self.embeddings(word_ids.clamp(max=n_rows - 1))  # (batch, 3, dim)
        extra = (word_ids >= n_rows).unsqueeze(-1)  # (batch, 3, 1)
        if extra.any():  # only at inference: training words all have rows
            vectors = torch.where(extra, self.unseen[(word_ids - n_rows).clamp(min=0)], vectors)
        hidden = torch.tanh(self.hidden(vectors.flatten(1)))  # (batch, hidden_size)
        return self.output(hidden).squeeze(-1)  # (batch,)

    def _row(self, word: str) -> int:
        if word in self.rows:
            return self.rows[word]
        if word not in self.unseen_rows:
            glove = load_glove()
            if word not in glove.index:
                return UNKNOWN
            vector = torch.from_numpy(glove.vectors[glove.index[word]].copy()).to(self.unseen)
            self.unseen = torch.cat([self.unseen, vector.unsqueeze(0)])
            self.unseen_rows[word] = self.embeddings.num_embeddings + len(self.unseen_rows)
        return self.unseen_rows[word]

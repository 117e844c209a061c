"""The corpus SLOR counts unigrams over when none is given: every text of the built-in suites (BLiMP aside)."""

from pathlib import Path

from plausibility.atomic import atomic_write_text
from plausibility.minimal_pairs.suite_config import experiments, load_suite
from plausibility.minimal_pairs.suite_runner import load_items
from plausibility.resources.paths import cache_dir

CORPUS_NAME = "minimal_pair_suites.txt"
# The suites the corpus was first built from. It stays fixed so that SLOR figures, and a corpus already
# cached, do not change when a suite is added: BLiMP, vendored later, is not counted.
CORPUS_SUITES = ("anaphora_accessibility", "ecbd", "lieder", "schuster_linzen", "targeted_syntax")


def suite_corpus(folder: Path | None = None) -> Path:
    """A text file with every distinct text of the `CORPUS_SUITES`, one per line, sorted; built once under
    the cache (`corpora/`) and reused.

    This is what the project can build from its own data: about 275,000 distinct texts, mostly
    the targeted-syntax pairs. It stands in for the paper's OpenWebText fragment (Zhu et al. 2025, sec. 6).
    """
    target = (folder or cache_dir() / "corpora") / CORPUS_NAME
    if target.is_file():
        return target
    texts: set[str] = set()
    for name in CORPUS_SUITES:
        for experiment in experiments(name):
            items = load_items(load_suite(name, experiment))
            texts.update(text.full for item in items for text in item.roles.values())
    lines = sorted(text.replace("\n", " ") for text in texts)
    atomic_write_text(target, "\n".join(lines) + "\n")
    return target

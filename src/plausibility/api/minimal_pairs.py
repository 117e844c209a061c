"""`pairs` from Python: a language model (or precomputed scores) on a minimal-pair suite, as `plausibility pairs`
scores it."""

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from plausibility.devices import DType
from plausibility.errors import PlausibilityError
from plausibility.lm.loading import guess_kind
from plausibility.minimal_pairs.evaluate import SuiteResult
from plausibility.minimal_pairs.suite_config import SuiteConfig, load_suite
from plausibility.minimal_pairs.suite_runner import run_suite
from plausibility.minimal_pairs.text_scores import TextScores, TextWorker
from plausibility.minimal_pairs.unigram_corpus import suite_corpus
from plausibility.resources.causal_lm import DEFAULT_CAUSAL_LM
from plausibility.scorers.kinds import LM_BATCH_SIZE
from plausibility.workers import pool_of, worker_devices


@dataclass(frozen=True)
class PairsRun:
    """One model's run on a suite: the result (accuracy per comparison with intervals), the score of each text it
    used, and what the report records of how they were scored."""

    result: SuiteResult
    scores: TextScores
    facts: dict[str, object]


def pairs(
    suite: str | SuiteConfig = "lieder",
    model: str = DEFAULT_CAUSAL_LM,
    *,
    experiment: str | None = None,
    metric: str | None = None,
    data: Path | str | None = None,
    scores: Mapping[str, float] | None = None,
    kind: Literal["causal", "masked"] | None = None,
    pll: str | None = None,
    unit: Literal["token", "word"] = "token",
    bow_correction: bool = True,
    keep_pieces: bool = False,
    slor_corpus: Path | None = None,
    limit: int | None = None,
    seed: int = 0,
    where: Mapping[str, Collection[str]] | None = None,
    workers: int = 1,
    device: str | None = None,
    devices: int | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
) -> PairsRun:
    """`plausibility pairs`: accuracy per comparison of a suite (`lieder`, `blimp`, a suite YAML, ...).

    Args:
        suite: a suite's name or YAML, or one `load_suite` gave (then `experiment`, `metric`, `data` are its own).
        model: a language model (a Hugging Face id or folder); `scores` (text id -> value) replaces it.
        experiment: the suite's experiment (default: its first).
        metric: the comparison metric (default: the suite's).
        data: the suite's data file or folder (default: the vendored one).
        scores: precomputed scores, text id -> value, in place of a model.
        kind: `causal` or `masked` (default: read from the model's config).
        pll: a masked LM's pseudo-log-likelihood, `word-l2r` or `original`.
        unit: score by `token` or by `word` (words between spaces).
        bow_correction: with words, a causal LM's beginning-of-word correction.
        keep_pieces: keep each text's per-token or per-word values (`--dump-tokens`).
        slor_corpus: the unigram corpus of a SLOR suite (default: the bundled one).
        limit: a seeded sample of at most this many items per condition.
        seed: seed of that sample and of the bootstrap.
        where: items by label, e.g. `{"UID": ["wh_island"]}`.
        workers: worker processes that share the texts out.
        device: where the model runs.
        devices: with a `cuda` device, one worker per GPU.
        dtype: the precision of its weights.
        batch_size: texts per forward pass.
    """
    if limit is not None and limit < 1:
        raise PlausibilityError(f"limit must be a positive number of items, got {limit}")
    config = suite if isinstance(suite, SuiteConfig) else load_suite(suite, experiment, metric, data and Path(data))
    run = {"limit": limit, "seed": seed, "where": where or {}}
    if scores is not None:
        result, used = run_suite(config, scores=scores, **run)
        return PairsRun(result, used, {"lm": None})
    if pll is not None and (kind or guess_kind(model)) == "causal":
        raise PlausibilityError(f"pll is for masked LMs and {model} is causal; drop pll")
    batch_size = batch_size or LM_BATCH_SIZE
    corpus = (slor_corpus or suite_corpus()) if config.score == "slor" else None
    settings = {"unit": unit, "bow_correction": bow_correction, "keep_pieces": keep_pieces}
    factories = [
        TextWorker(
            model, kind, place, dtype or "float32", batch_size, pll, config.score, slor_corpus=corpus, **settings
        )
        for place in worker_devices(workers, device, devices)
    ]
    with pool_of(factories) as pool:  # this process, or a worker process for each place
        result, used = run_suite(config, pool=pool, **run, **settings)
    facts: dict[str, object] = {
        "lm": model,
        "dtype": dtype or "float32",
        "batch_size": batch_size,
        "pll": used.facts.get("pll"),
        "unit": unit,
        "bow_correction": used.facts.get("bow_correction", False),
    }
    if corpus is not None:
        facts["slor_corpus"] = str(corpus)
    return PairsRun(result, used, facts)

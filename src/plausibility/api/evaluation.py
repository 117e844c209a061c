"""`evaluate` and `consistency` from Python: what `plausibility evaluate` and `plausibility consistency` compute,
returned as the records those commands write."""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from plausibility.api.scorer import load_scorer
from plausibility.api.workers import scoring_pool
from plausibility.benchmarks.datasets import DATASETS, SPLITS, LabelledEvent, load_plausibility_set
from plausibility.benchmarks.judged_set import DEFAULT_FILLERS
from plausibility.benchmarks.registry import DEFAULT_BENCHMARKS, check_by, judged_sets
from plausibility.devices import DType
from plausibility.errors import UnknownNameError
from plausibility.evaluation.grids import ConsistencyResult, measure_consistency
from plausibility.evaluation.judged_figures import Figure
from plausibility.evaluation.judged_scores import UNIT_TRIPLES, ScoredSet, figures_of, score_sets, scores_table
from plausibility.lexicon.training_lexicon import lexicon_of
from plausibility.workers import worker_devices


@dataclass(frozen=True)
class Evaluation:
    """A model's figures on judged sets, and the scored sets they were computed from.

    Attributes:
        figures: one record per benchmark, split, group and figure, as `metrics.json` holds them.
        scored: each set with every event's score and probability.
        fillers: the nouns a partial event's empty slot was filled with.
    """

    figures: list[Figure]
    scored: list[ScoredSet]
    fillers: tuple[str, ...]

    def table(self) -> pd.DataFrame:
        """The figures as a table, one row per figure (`metrics.csv`)."""
        return pd.DataFrame([vars(figure) for figure in self.figures])

    def scores(self) -> pd.DataFrame:
        """Every event's score (what `--dump-scores` writes)."""
        return scores_table(self.scored, self.fillers)


def evaluate(
    model: str | None = None,
    *,
    benchmarks: Sequence[str] = DEFAULT_BENCHMARKS,
    splits: Sequence[str] = SPLITS,
    data: Sequence[Path | str] = (),
    by: Sequence[str] = (),
    fillers: Sequence[str] = DEFAULT_FILLERS,
    seed: int = 0,
    workers: int = 1,
    device: str | None = None,
    devices: int | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
    as_given: bool = False,
) -> Evaluation:
    """`plausibility evaluate`: a model's figures, each with a 95% bootstrap interval, on the named benchmarks'
    splits and on judged sets from files (`data`, each used whole), each event scored as its lemmas as
    `plausibility score` scores it (`as_given`: as written).

    Args:
        model: any model SPEC (None: the default model).
        benchmarks: named benchmarks (`pep3k`, `20q`, `pap`, `plain`, `reversals`); `none` of them for files only.
        splits: their halves (`valid`, `test`).
        data: tables of judged events (label, rating, pair, agreed_label or reversal_of columns).
        by: also give each file's figures per value of these columns.
        fillers: nouns that fill a partial event's empty slot.
        seed: seed of the bootstrap intervals.
        workers: worker processes that share the events out (`scoring_pool`).
        device: where the model runs (`load_scorer`).
        devices: with a `cuda` device, one worker per GPU.
        dtype: the precision of its weights (`load_scorer`).
        batch_size: triples (sentences, for a language model) per forward pass.
        as_given: score the events' words as written, not as their lemmas.
    """
    sets = judged_sets(benchmarks, splits, [Path(path) for path in data])  # a bad file fails before a model loads
    check_by(sets, by)
    pooled = len(worker_devices(workers, device, devices)) > 1  # as scoring_pool decides
    options = {"workers": workers, "device": device, "devices": devices, "dtype": dtype, "batch_size": batch_size}
    with scoring_pool(model, with_probability=True, **options) as score_units:
        scored = score_sets(score_units, sets, fillers, UNIT_TRIPLES if pooled else None, as_given)
    return Evaluation(figures_of(scored, by, seed), scored, tuple(fillers))


def consistency_events(benchmark: str, split: str, limit: int | None = None) -> list[LabelledEvent]:
    """The events of one Pep-3k or 20Q half whose grids `consistency` measures (the first `limit`)."""
    if benchmark not in DATASETS:
        raise UnknownNameError("benchmark with abstraction grids", benchmark, DATASETS)
    return load_plausibility_set(benchmark, split)[:limit]


def consistency(
    model: str | None = None,
    *,
    benchmark: str = "pep3k",
    split: str = "test",
    limit: int | None = None,
    wsd: str | None = None,
    min_depth: int | None = None,
    chunk_size: int = 1024,
    device: str | None = None,
    dtype: DType | None = None,
    batch_size: int | None = None,
    as_given: bool = False,
) -> ConsistencyResult:
    """`plausibility consistency`: CCΔ and LER of a model over the abstraction grids of a Pep-3k or 20Q half.

    Grids are laid out in the model's own lexicon (its WSD and minimum depth) unless `wsd` or `min_depth` say
    otherwise, from each event's lemmas (`as_given`: as written); `chunk_size` grid cells go to the model per
    call, `batch_size` per forward pass.
    """
    events = consistency_events(benchmark, split, limit)
    scorer = load_scorer(model, device=device, dtype=dtype, batch_size=batch_size).scorer
    lexicon = lexicon_of(scorer.lexicon, wsd=wsd, min_depth=min_depth)
    triples = [event.triple for event in events]
    return measure_consistency(scorer, triples, lexicon, chunk_size=chunk_size, progress=True, as_given=as_given)

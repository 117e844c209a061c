"""Where shards are parsed: local worker processes, or a Ray cluster through Ray Data."""

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Literal, get_args

from plausibility.corpus.extraction import RuleOptions
from plausibility.corpus.parsers import ParserSpec
from plausibility.corpus.readers import Source
from plausibility.corpus.shards import Shard, ShardResult, parse_shard
from plausibility.errors import ResourceMissingError
from plausibility.triple import Triple

Engine = Literal["local", "ray"]
ENGINES: tuple[str, ...] = get_args(Engine)

# A worker is replaced after this many shards: spaCy's string store grows with every new word it sees,
# so recycling workers keeps memory flat on long corpora (a reload costs about a second).
SHARDS_PER_WORKER = 8


def run_local(shards: Iterable[Shard], spec: ParserSpec, rule: RuleOptions, workers: int) -> Iterator[ShardResult]:
    """Parse shards in `workers` processes; results arrive in completion order."""
    # spawn: a forked copy of a parent that already imported torch or spaCy can deadlock.
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, maxtasksperchild=SHARDS_PER_WORKER) as pool:
        yield from pool.imap_unordered(partial(parse_shard, spec=spec, rule=rule), shards)


class _RayShardParser:
    """A Ray Data actor: loads the parser once and parses one shard per batch row."""

    def __init__(self, spec: ParserSpec, rule: RuleOptions) -> None:
        self.spec = spec
        self.rule = rule

    def __call__(self, batch: dict[str, list]) -> dict[str, list]:
        rows: dict[str, list] = {"key": [], "sentences": [], "triples": [], "parser": []}
        for index in range(len(batch["start"])):
            source = Source(
                path=Path(batch["path"][index]),
                format=batch["format"][index],
                sha256=batch["sha256"][index],
                jsonl_field=batch["jsonl_field"][index],
            )
            result = parse_shard(
                Shard(source, int(batch["start"][index]), int(batch["stop"][index])), self.spec, self.rule
            )
            rows["key"].append(result.key)
            rows["sentences"].append(result.sentences)
            rows["triples"].append([[t.subject, t.verb, t.object, str(n)] for t, n in result.counts.items()])
            rows["parser"].append(sorted(result.parser.items()))
        return rows


def run_ray(shards: Iterable[Shard], spec: ParserSpec, rule: RuleOptions, workers: int) -> Iterator[ShardResult]:
    """Parse shards with Ray Data `map_batches` on `workers` actors.

    Joins the cluster named by `RAY_ADDRESS` when set, else starts a local Ray. Every actor reads its
    shards itself, so on a cluster the corpus paths must be visible to every node.
    """
    try:
        import ray
    except ImportError as error:
        raise ResourceMissingError("the ray engine needs Ray Data; run: pip install 'ray[data]'") from error
    if not ray.is_initialized():
        options = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
        if os.environ.get("RAY_ADDRESS"):
            ray.init(**options)  # a running cluster sizes itself; num_cpus is only for a local start
        else:
            ray.init(num_cpus=workers, **options)
    items = [
        {**{name: str(value) for name, value in asdict(shard.source).items()}, "start": shard.start, "stop": shard.stop}
        for shard in shards
    ]
    if not items:
        return
    context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    dataset = ray.data.from_items(items, override_num_blocks=len(items)).map_batches(
        _RayShardParser,
        fn_constructor_kwargs={"spec": spec, "rule": rule},
        batch_size=1,
        concurrency=workers,
        num_cpus=1,
    )
    for row in dataset.iter_rows():
        counts = {Triple(s, v, o): int(n) for s, v, o, n in row["triples"]}
        yield ShardResult(row["key"], int(row["sentences"]), counts, dict(row["parser"]))

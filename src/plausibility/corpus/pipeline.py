"""Corpus files to the triples table and training pairs: plan, parse (resumably), merge, filter, write."""

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from plausibility.corpus.artefacts import read_triples, write_json, write_pairs, write_triples
from plausibility.corpus.engines import ENGINES, Engine, run_local, run_ray
from plausibility.corpus.extraction import RuleOptions
from plausibility.corpus.filters import FilterStep, filter_triples
from plausibility.corpus.negatives import PERTURBATIONS, expand, sample_negatives
from plausibility.corpus.parsers import ParserSpec
from plausibility.corpus.readers import Source, inspect_source, read_paragraphs
from plausibility.corpus.shards import Shard, ShardResult, ShardStore, plan_shards
from plausibility.errors import DataFormatError, PlausibilityError, UnknownNameError
from plausibility.triple import Triple
from plausibility.version import __version__

TRIPLES_FILE = "triples.parquet"
PAIRS_FILE = "pairs.parquet"
MANIFEST_FILE = "manifest.json"
SHARDS_FOLDER = "shards"

# The paper's 1000 and 1000 were set for all of English Wikipedia (~110M sentences); scaled to a corpus of about
# a million sentences both come to about 10. The bundled set (2.7M sentences) keeps words seen 5 times, for
# coverage of the evaluation sets' words (see data/PROVENANCE.md).
DEFAULT_MIN_COUNT = 10
DEFAULT_MAX_REPEAT = 10


@dataclass(frozen=True, slots=True)
class Extraction:
    """What an extraction run wrote and counted."""

    triples_path: Path
    manifest_path: Path
    sentences: int
    steps: list[FilterStep]
    shards_parsed: int
    shards_resumed: int


def _check_positive(**values: int) -> None:
    for name, value in values.items():
        if value < 1:
            raise PlausibilityError(f"{name.replace('_', '-')} must be at least 1, got {value}")


def _sources(inputs: Sequence[Path], jsonl_field: str) -> list[Source]:
    if not inputs:
        raise DataFormatError("no input files; give at least one corpus file")
    sources = [inspect_source(Path(path), jsonl_field) for path in inputs]
    seen: dict[str, Path] = {}
    for source in sources:
        if source.sha256 in seen:
            raise DataFormatError(f"{source.path} has the same content as {seen[source.sha256]}; give each file once")
        seen[source.sha256] = source.path
    if all(next(read_paragraphs(source), None) is None for source in sources):
        names = ", ".join(str(source.path) for source in sources)
        raise DataFormatError(f"{names}: the corpus is empty (no text); give files with at least one paragraph")
    return sources


def extract_corpus(
    inputs: Sequence[Path],
    output: Path,
    parser: ParserSpec | None = None,
    rule: RuleOptions | None = None,
    engine: Engine = "local",
    workers: int = 1,
    shard_size: int = 1000,
    min_count: int = DEFAULT_MIN_COUNT,
    max_repeat: int = DEFAULT_MAX_REPEAT,
    jsonl_field: str = "text",
    on_shard: Callable[[ShardResult], None] | None = None,
) -> Extraction:
    """Extract, filter and write `output/triples.parquet` with `output/manifest.json`.

    Finished shards are kept under `output/shards/`; running again with the same inputs and settings
    parses only the shards not yet there, so an interrupted run resumes without counting anything twice.

    Args:
        parser: backend and model (default: offline spaCy).
        rule: extraction options (default: the paper's rule, no passives or coordinated objects).
        shard_size: paragraphs per unit of work (and per resumable step).
        on_shard: called with each newly parsed shard (progress reporting).
    """
    parser = parser or ParserSpec()
    rule = rule or RuleOptions()
    if engine not in ENGINES:
        raise UnknownNameError("engine", engine, ENGINES)
    _check_positive(workers=workers, shard_size=shard_size, min_count=min_count, max_repeat=max_repeat)
    sources = _sources(inputs, jsonl_field)
    settings = {
        "parser": {"name": parser.name, "model": parser.model},
        "rule": asdict(rule),
        "shard_size": shard_size,
        "jsonl_field": jsonl_field,
    }
    store = ShardStore(output / SHARDS_FOLDER, settings)

    planned: list[Shard] = []

    def pending() -> Iterator[Shard]:
        for shard in plan_shards(sources, shard_size):
            planned.append(shard)
            if not store.done(shard.key):
                yield shard

    run = run_ray if engine == "ray" else run_local
    parsed = 0
    for result in run(pending(), parser, rule, workers):
        store.save(result)
        parsed += 1
        if on_shard is not None:
            on_shard(result)

    counts: Counter[Triple] = Counter()
    sentences = 0
    paragraphs: Counter[str] = Counter()
    parser_description: dict[str, str] = {}
    for shard in planned:
        result = store.load(shard.key)
        counts.update(result.counts)
        sentences += result.sentences
        paragraphs[shard.source.sha256] += shard.stop - shard.start
        parser_description = result.parser
    kept, steps = filter_triples(counts, min_count, max_repeat)

    triples_path, manifest_path = output / TRIPLES_FILE, output / MANIFEST_FILE
    write_triples(triples_path, kept)
    manifest = {
        "plausibility_version": __version__,
        "sources": [
            {
                "name": source.path.name,
                "sha256": source.sha256,
                "format": source.format,
                "paragraphs": paragraphs[source.sha256],
            }
            for source in sources
        ],
        "parser": parser_description,
        "rule": asdict(rule),
        "filters": {"min_count": min_count, "max_repeat": max_repeat},
        "sentences_parsed": sentences,
        "counts": [asdict(step) for step in steps],
        "unique_events": steps[-1].unique,
        "engine": {"name": engine, "workers": workers, "shard_size": shard_size, "shards": len(planned)},
    }
    write_json(manifest_path, manifest)
    return Extraction(triples_path, manifest_path, sentences, steps, parsed, len(planned) - parsed)


def write_training_pairs(folder: Path, seed: int = 0) -> Path:
    """Expand `folder/triples.parquet` to one row per occurrence, add seeded pseudo-negatives.

    Writes `folder/pairs.parquet` and records the seed and the pair count in `folder/manifest.json`.
    """
    events = expand(read_triples(folder / TRIPLES_FILE))
    negatives = sample_negatives(events, np.random.default_rng(seed))
    pairs_path = folder / PAIRS_FILE
    write_pairs(pairs_path, events, negatives)
    manifest_path = folder / MANIFEST_FILE
    manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
    manifest["negatives"] = {
        "seed": seed,
        "pairs": len(events),
        "perturbations": list(PERTURBATIONS),
        "distribution": "position-wise unigram over the filtered, capped occurrences",
    }
    write_json(manifest_path, manifest)
    return pairs_path

"""Units of work: fixed runs of paragraphs of one source, parsed independently and stored for resuming."""

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import islice
from pathlib import Path

from plausibility.corpus.artefacts import write_json
from plausibility.corpus.extraction import RuleOptions, extract_triples
from plausibility.corpus.parsers import Parser, ParserSpec
from plausibility.corpus.readers import Source, read_paragraphs
from plausibility.errors import DataFormatError
from plausibility.triple import Triple


@dataclass(frozen=True, slots=True)
class Shard:
    """Paragraphs `start` (inclusive) to `stop` (exclusive) of one source."""

    source: Source
    start: int
    stop: int

    @property
    def key(self) -> str:
        """Stable name: the source's content hash and the first paragraph, so file order does not matter."""
        return f"{self.source.sha256[:16]}-{self.start:010d}"


@dataclass(frozen=True, slots=True)
class ShardResult:
    """What parsing one shard produced."""

    key: str
    sentences: int
    counts: dict[Triple, int]
    parser: dict[str, str]


def plan_shards(sources: Iterable[Source], size: int) -> Iterator[Shard]:
    """Cut every source into shards of `size` paragraphs, streaming (the last one may be shorter)."""
    for source in sources:
        start = count = 0
        for count, _ in enumerate(read_paragraphs(source), start=1):
            if count - start == size:
                yield Shard(source, start, count)
                start = count
        if count > start:
            yield Shard(source, start, count)


@cache
def _parser(spec: ParserSpec) -> Parser:
    # One parser per process, loaded on its first shard and reused for the next ones.
    return spec.load()


def parse_shard(shard: Shard, spec: ParserSpec, rule: RuleOptions) -> ShardResult:
    """Parse a shard's paragraphs and count the triples the rule extracts."""
    parser = _parser(spec)
    paragraphs = islice(read_paragraphs(shard.source), shard.start, shard.stop)
    counts: Counter[Triple] = Counter()
    sentences = 0
    for clause in parser.clauses(paragraphs):
        sentences += 1
        counts.update(extract_triples(clause, rule))
    return ShardResult(shard.key, sentences, dict(counts), parser.describe())


SETTINGS_FILE = "settings.json"


class ShardStore:
    """A folder of finished shard results; a run skips the shards already there."""

    def __init__(self, folder: Path, settings: dict[str, object]) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        settings_file = folder / SETTINGS_FILE
        if settings_file.is_file():
            stored = json.loads(settings_file.read_text())
            if stored != settings:
                raise DataFormatError(
                    f"{folder} holds shards parsed with other settings ({stored}); use another --output "
                    "folder or delete it to start over"
                )
        else:
            write_json(settings_file, settings)

    @classmethod
    def reopen(cls, folder: Path) -> "ShardStore":
        """The store an earlier run left in `folder`, with the settings it parsed with (to study its shards)."""
        settings_file = folder / SETTINGS_FILE
        if not settings_file.is_file():
            raise DataFormatError(
                f"{folder}: no {SETTINGS_FILE}, so no parsed shards; give the folder a run parsed into"
            )
        return cls(folder, json.loads(settings_file.read_text()))

    def stored_keys(self) -> list[str]:
        """The keys of every shard stored, sorted."""
        return sorted(path.stem for path in self.folder.glob("*.json") if path.name != SETTINGS_FILE)

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def done(self, key: str) -> bool:
        return self._path(key).is_file()

    def save(self, result: ShardResult) -> None:
        triples = sorted([t.subject, t.verb, t.object, n] for t, n in result.counts.items())
        write_json(
            self._path(result.key),
            {"key": result.key, "sentences": result.sentences, "parser": result.parser, "triples": triples},
        )

    def load(self, key: str) -> ShardResult:
        stored = json.loads(self._path(key).read_text())
        counts = {Triple(subject, verb, obj): count for subject, verb, obj, count in stored["triples"]}
        return ShardResult(stored["key"], stored["sentences"], counts, stored["parser"])

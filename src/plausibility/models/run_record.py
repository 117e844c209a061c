"""What a training run's folder records of it: the batch size and pairs of its config, and how long it trained."""

from dataclasses import dataclass
from pathlib import Path

import yaml

from plausibility.errors import ResourceMissingError
from plausibility.resources.paths import resolve_data_path


@dataclass(frozen=True)
class RunRecord:
    """What the run folder around a checkpoint tells of its training (None where it has no record).

    Attributes:
        training_seconds: from the CSV logger's file times, summed over its versions: `hparams.yaml` is
            written when fitting starts, `metrics.csv` last when it ends; validation time is included.
    """

    folder: Path | None
    batch_size: int | None = None
    pairs: Path | None = None
    training_seconds: float | None = None


def run_record(checkpoint: Path) -> RunRecord:
    """Batch size, pairs and training time from the run folder `runs/<name>/checkpoints/<file>.ckpt` sits in."""
    folder = checkpoint.resolve().parent.parent if checkpoint.resolve().parent.name == "checkpoints" else None
    versions = sorted(folder.glob("logs/version_*"), key=lambda p: p.stat().st_mtime) if folder else []
    if not versions:
        return RunRecord(folder)
    batch_size, pairs = None, None
    config_path = versions[-1] / "config.yaml"
    if config_path.is_file():
        data = (yaml.safe_load(config_path.read_text(encoding="utf-8")) or {}).get("data") or {}
        batch_size = data.get("batch_size")
        try:
            pairs = resolve_data_path(data["pairs"]) if "pairs" in data else None
        except ResourceMissingError:
            pairs = None
    spans = [
        (version / "metrics.csv").stat().st_mtime - (version / "hparams.yaml").stat().st_mtime
        for version in versions
        if (version / "metrics.csv").is_file() and (version / "hparams.yaml").is_file()
    ]
    return RunRecord(folder, batch_size, pairs, sum(spans) if spans else None)

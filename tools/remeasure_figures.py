"""Measure a shipped model's Pep-3k and 20Q figures again and rewrite them in its folder.

A model's `evaluation.json` and card hold what its export measured. A change to how the evaluation reads the
benchmarks (as when it came to read each event as its lemmas) leaves those figures behind; this scores every
half again as `plausibility evaluate` does, with the folder's own scorer and calibration, and rewrites what
that measures: each half's AUC with its interval, how the own and the calibrated probabilities fit each half,
the test AUCs of the card's metadata block, and (where the export measured them) CCΔ / LER over every test
event, as the export measures them. The calibration, the weights and every other line of the card stay as they
are; the card says when its figures were measured again.

    python tools/remeasure_figures.py data/models/roberta data/models/conceptmax data/models/fast data/models/default
"""

import argparse
import json
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import yaml

from plausibility.evaluation.judged_calibration import calibration_figures
from plausibility.evaluation.judged_scores import figures_of
from plausibility.evaluation.results import ReportSettings, auc_intervals, consistency_figures, scored_halves
from plausibility.models.model_folder import CONFIG, EVALUATION, ModelFolder
from plausibility.release.card_metadata import card_metadata
from plausibility.release.model_card import (
    CONSISTENCY_HEADER,
    FIT_HEADER,
    auc_table,
    consistency_record,
    consistency_rows,
    fit_rows,
)
from plausibility.scorers.registry import build_scorer
from plausibility.version import __version__

EXPORTED = "Exported by plausibility "
MEASURED_AGAIN = "Figures measured again by plausibility "


def _replace_rows(lines: list[str], header: list[str], rows: list[str], card: Path) -> list[str]:
    """`lines` with the table below `header` (the rows up to the next blank line) replaced by `rows`."""
    starts = [i for i in range(len(lines)) if lines[i : i + len(header)] == header]
    if len(starts) != 1:
        raise SystemExit(f"{card}: expected one table headed {header[0]!r}, found {len(starts)}")
    first = starts[0] + len(header)
    last = lines.index("", first)
    return [*lines[:first], *rows, *lines[last:]]


def _replace_auc(lines: list[str], table: list[str], card: Path) -> list[str]:
    """`lines` with the paragraph and table right under `## Evaluation` replaced by `table`."""
    start = lines.index("## Evaluation") + 2
    paragraph_end = lines.index("", start)
    table_end = lines.index("", paragraph_end + 1)
    if lines[paragraph_end + 1] != table[2]:  # the table's header
        raise SystemExit(f"{card}: no AUC table under ## Evaluation")
    return [*lines[:start], *table, *lines[table_end:]]


def _measured(folder: Path, record: dict, seed: int) -> dict[str, list[str]]:
    """Measure the folder's figures as the export does and put them in `record`; the card's rows that change."""
    own_scorer = build_scorer(f"uncalibrated:{folder}")
    calibrated = build_scorer(str(folder))
    halves = scored_halves(own_scorer)
    auc = auc_intervals(figures_of(halves, seed=seed))
    own = calibration_figures(halves, own_scorer.to_probability)
    after = calibration_figures(halves, calibrated.to_probability)
    for dataset, by_split in auc.items():
        for split, interval in by_split.items():
            old = record[f"{dataset}/{split}"]["estimate"]
            print(f"{folder.name} {dataset}/{split} AUC: {old:.4f} -> {interval.estimate:.4f}")
            record[f"{dataset}/{split}"] = asdict(interval)
    record.update({f"{half}/own_probabilities": asdict(figures) for half, figures in own.items()})
    record.update({f"{half}/calibrated": asdict(figures) for half, figures in after.items()})
    rows = {"auc": auc_table(auc), "fit": fit_rows(own, after)}
    if any(key.endswith("/consistency") for key in record):  # every test event, as the export measures it
        consistency = consistency_figures(calibrated, ReportSettings(seed=seed, consistency_events=None))
        for dataset, c in consistency.items():
            old = record[f"{dataset}/test/consistency"]
            change = f"CCΔ {old['ccd']:.4f} -> {c.ccd:.4f}, LER {old['ler']:.3f} -> {c.ler:.3f}"
            print(f"{folder.name} {dataset}/test {change}")
            record[f"{dataset}/test/consistency"] = consistency_record(c)
        rows["consistency"] = consistency_rows(consistency)
    return rows


def remeasure(folder: Path, seed: int) -> None:
    record = json.loads((folder / EVALUATION).read_text(encoding="utf-8"))
    config = yaml.safe_load((folder / CONFIG).read_text(encoding="utf-8"))  # a net's, an ensemble's or a stack's
    rows = _measured(folder, record, seed)
    card_path = ModelFolder(folder).card
    text = card_path.read_text(encoding="utf-8")
    block_end = text.index("\n---\n", 4) + len("\n---\n\n")  # the metadata block, written anew below
    lines = _replace_auc(text[block_end:].split("\n"), rows["auc"], card_path)
    lines = _replace_rows(lines, FIT_HEADER, rows["fit"], card_path)
    if "consistency" in rows:
        lines = _replace_rows(lines, CONSISTENCY_HEADER, rows["consistency"], card_path)
    note = f"{MEASURED_AGAIN}{__version__} on {datetime.now(UTC):%Y-%m-%d} UTC, each benchmark event read as its "
    note += "lemmas (`tools/remeasure_figures.py`)."
    earlier = [i for i, line in enumerate(lines) if line.startswith(MEASURED_AGAIN)]
    if earlier:
        lines[earlier[0]] = note
    else:
        (exported,) = [i for i, line in enumerate(lines) if line.startswith(EXPORTED)]
        lines[exported + 1 : exported + 1] = ["", note]
    (folder / EVALUATION).write_text(json.dumps(record, indent=1) + "\n")
    card_path.write_text(card_metadata(config, record) + "\n".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, metavar="FOLDER", help="shipped model folders")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bootstrap intervals (default 0, as export)")
    args = parser.parse_args()
    for folder in args.folders:
        remeasure(folder, args.seed)


if __name__ == "__main__":
    main()

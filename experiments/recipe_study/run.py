"""Train named variants of the default configs and tabulate their steps, time and valid AUCs.

The variants are listed in `variants.yaml` beside this file (name, config of `configs/models/`, overrides); one
whose option was removed in 0.2.0 (`removed_in`) is skipped with its note, neither trained nor tabulated.
Each variant is `plausibility fit` on a config with overrides, run in its own folder `runs/study/<name>`
(`--trainer.default_root_dir`, which its checkpoints and logs follow). With `--lock FILE`, each run first waits
for that lock file (so no other heavy job shares the cores) and is timed from when it holds it.
The table (`results.md`, `results.csv` in `--out`) holds,
for the final `last.ckpt` of each variant: its steps, the pairs seen (steps x batch size), the wall time of
the `fit` command (model loading and validations included) and the valid AUCs that `fit` logged at that
step, then the best validation (the step and AUCs of the checkpoint kept as best, by mean valid AUC).
`--seed S` (repeatable) runs every variant once per seed (`--seed_everything=S --data.seed=S`, named
`<variant>-seedS`), as seeds spread ConceptMax's valid AUC by a few hundredths. Reference runs already
trained elsewhere (`--reference NAME=RUN_FOLDER`) are read, not trained, and so is every variant an earlier call
trained into `--out`: rerun a stopped study and only the missing variants are trained.
Only valid halves are used: choosing a recipe must not look at the test halves. `--trend NAME=RUN_FOLDER`
tabulates every validation of a run instead (AUC against pairs seen).

    python experiments/recipe_study/run.py --reference roberta=runs/roberta --reference concept_max=runs/concept_max
    python experiments/recipe_study/run.py --only concept_max-depth8 --only concept_max-depth6 --seed 0 --seed 1
"""

import argparse
import csv
import fcntl
import os
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import torch
import yaml

CONFIGS = Path(__file__).parents[2] / "configs" / "models"
VARIANTS = Path(__file__).with_name("variants.yaml")
COLUMNS = (
    "variant",
    "config",
    "overrides",
    "steps",
    "pairs_seen",
    "train_wall_s",
    "val_auc_pep3k",
    "val_auc_20q",
    "best_step",
    "best_val_auc_pep3k",
    "best_val_auc_20q",
)


@dataclass(frozen=True)
class Variant:
    name: str  # what `--only` selects by, whatever the seed
    config: str
    overrides: tuple[str, ...]
    seed: int | None = None  # None: the config's own seeds

    @property
    def run_name(self) -> str:
        """The run folder's name under `--out`, and the variant's row in the table."""
        return self.name if self.seed is None else f"{self.name}-seed{self.seed}"

    @property
    def arguments(self) -> tuple[str, ...]:
        """The overrides given to `plausibility fit`, the seeds' included."""
        seeds = () if self.seed is None else (f"--seed_everything={self.seed}", f"--data.seed={self.seed}")
        return (*self.overrides, *seeds)


def load_variants(path: Path, roberta_checkpoint: str) -> tuple[list[Variant], list[tuple[str, str]]]:
    """The variants of `variants.yaml` in its order, and (name, note) of each one whose option was removed.

    `{roberta_checkpoint}` in an override becomes the classifier checkpoint `init_from` starts at.
    """
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    study, removed = [], []
    for entry in entries:
        if "removed_in" in entry:
            removed.append((entry["name"], entry.get("note", f"removed in {entry['removed_in']}")))
            continue
        overrides = tuple(o.format(roberta_checkpoint=roberta_checkpoint) for o in entry["overrides"])
        study.append(Variant(entry["name"], entry["config"], overrides))
    return study, removed


def variants(study: list[Variant], seeds: list[int]) -> list[Variant]:
    """The study's variants, in the order they are run; each once per seed when seeds are given."""
    return [replace(variant, seed=seed) for variant in study for seed in seeds] if seeds else study


def validations(run: Path) -> list[dict[str, float]]:
    """Every validation the CSV logger of a run folder logged (its newest version): `step` and valid AUCs."""
    logs = sorted(run.glob("logs/version_*/metrics.csv"), key=lambda p: int(p.parent.name.split("_")[1]))
    if not logs:
        raise SystemExit(f"{run}: no logs/version_*/metrics.csv; was it trained with the CSV logger?")
    with logs[-1].open() as file:
        rows = [row for row in csv.DictReader(file) if row.get("val/auc_pep3k") and row.get("val/auc_20q")]
    if not rows:
        raise SystemExit(f"{logs[-1]}: no validation row with val/auc_pep3k and val/auc_20q")
    return [{"step": int(r["step"]), "pep3k": float(r["val/auc_pep3k"]), "20q": float(r["val/auc_20q"])} for r in rows]


def write_trend(name: str, run: Path, out: Path) -> None:
    """AUC against pairs seen: one row per validation of a run, into `trend-<name>.md`."""
    saved = sorted(run.glob("logs/version_*/config.yaml"))
    batch = yaml.safe_load(saved[-1].read_text())["data"]["batch_size"]
    lines = ["| steps | pairs seen | valid AUC pep3k | valid AUC 20q | mean |", "|---|---|---|---|---|"]
    for row in validations(run):
        steps = row["step"] + 1  # Lightning logs a validation at global_step - 1 of the step that ran it
        mean = (row["pep3k"] + row["20q"]) / 2
        lines.append(f"| {steps} | {steps * batch:,} | {row['pep3k']:.4f} | {row['20q']:.4f} | {mean:.4f} |")
    out.mkdir(parents=True, exist_ok=True)
    (out / f"trend-{name}.md").write_text("\n".join(lines) + "\n")
    print(f"{name} ({run}):")
    print("\n".join(lines))


def summary(name: str, config: str, overrides: str, run: Path, wall: float | None) -> dict[str, object]:
    """One table row for a trained run folder; its last validation must be at its `last.ckpt`'s step."""
    checkpoint = torch.load(run / "checkpoints" / "last.ckpt", map_location="cpu", weights_only=True)
    steps = int(checkpoint["global_step"])
    saved = sorted(run.glob("logs/version_*/config.yaml"))
    batch = yaml.safe_load(saved[-1].read_text())["data"]["batch_size"] if saved else None
    every = validations(run)
    validation = every[-1]
    best = max(every, key=lambda row: row["pep3k"] + row["20q"])  # what the best checkpoint keeps
    # Lightning logs validation rows at global_step - 1 of the step that ran them.
    if validation["step"] + 1 != steps:
        raise SystemExit(f"{run}: the last validation is at step {validation['step'] + 1}, last.ckpt at {steps}")
    return {
        "variant": name,
        "config": config,
        "overrides": overrides,
        "steps": steps,
        "pairs_seen": steps * batch if batch else "",
        "train_wall_s": f"{wall:.0f}" if wall is not None else "",
        "val_auc_pep3k": f"{validation['pep3k']:.4f}",
        "val_auc_20q": f"{validation['20q']:.4f}",
        "best_step": best["step"] + 1,
        "best_val_auc_pep3k": f"{best['pep3k']:.4f}",
        "best_val_auc_20q": f"{best['20q']:.4f}",
    }


def train(variant: Variant, out: Path, lock: Path | None) -> float:
    """Run `plausibility fit` for one variant (holding `lock`, if given); the wall seconds it took."""
    folder = out / variant.run_name
    folder.mkdir(parents=True, exist_ok=True)
    config = CONFIGS / variant.config
    command = [sys.executable, "-m", "plausibility", "fit", f"--config={config}", *variant.arguments]
    command += [f"--trainer.default_root_dir={folder}"]  # checkpoints and logs follow the run folder
    command += ["--trainer.enable_progress_bar=false"]
    environment = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "2")}
    with open(lock or os.devnull, "a") as handle:
        if lock is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)  # the same lock as `flock <lock> command`
        start = time.monotonic()
        with (folder / "fit.log").open("w") as log:
            done = subprocess.run(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
        wall = time.monotonic() - start
    if done.returncode != 0:
        failed = f"plausibility fit failed (exit {done.returncode})"
        raise SystemExit(f"{variant.run_name}: {failed}; see {folder / 'fit.log'}")
    (folder / "wall_seconds").write_text(f"{wall:.1f}\n")
    return wall


def write_table(rows: list[dict[str, object]], out: Path) -> None:
    with (out / "results.csv").open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(str(row[c]) for c in COLUMNS) + " |" for row in rows]
    (out / "results.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/study"))
    parser.add_argument(
        "--roberta-checkpoint", default="runs/roberta/checkpoints/last.ckpt", help="the classifier init_from starts at"
    )
    parser.add_argument("--reference", action="append", default=[], help="NAME=RUN_FOLDER, read and not trained")
    parser.add_argument("--only", action="append", default=[], help="train only these variants (default: all)")
    parser.add_argument(
        "--seed", action="append", type=int, default=[], help="run each variant with this seed (repeatable)"
    )
    parser.add_argument(
        "--trend", action="append", default=[], help="NAME=RUN_FOLDER: tabulate its every validation, then stop"
    )
    parser.add_argument(
        "--lock", type=Path, help="a lock file each run waits for, so runs never share the cores with other jobs"
    )
    args = parser.parse_args()
    if args.trend:
        for trend in args.trend:
            name, _, folder = trend.partition("=")
            write_trend(name, Path(folder), args.out)
        return

    rows = []
    for reference in args.reference:
        name, _, folder = reference.partition("=")
        rows.append(summary(name, "(reference)", "", Path(folder), None))
    study, removed = load_variants(VARIANTS, args.roberta_checkpoint)
    for name, note in removed:
        if not args.only or name in args.only:
            print(f"skipping {name}: {note}")
    for variant in variants(study, args.seed):
        folder = args.out / variant.run_name
        if (folder / "wall_seconds").is_file():
            wall = float((folder / "wall_seconds").read_text())  # trained by an earlier call, which stopped after it
        elif args.only and variant.name not in args.only:
            continue
        else:
            wall = train(variant, args.out, args.lock)
        rows.append(summary(variant.run_name, variant.config, " ".join(variant.arguments), folder, wall))
        write_table(rows, args.out)
    write_table(rows, args.out)


if __name__ == "__main__":
    main()

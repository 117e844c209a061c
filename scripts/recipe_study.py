"""Train named variants of the default configs and tabulate their steps, time and valid AUCs.

Each variant is `plausibility fit` on a config with overrides, written into its own `runs/study/<name>`
(the config's root, log and checkpoint folders all moved there). With `--lock FILE`, each run first waits
for that lock file (so no other heavy job shares the cores) and is timed from when it holds it.
The table (`results.md`, `results.csv` in `--out`) holds,
for the final `last.ckpt` of each variant: its steps, the pairs seen (steps x batch size), the wall time of
the `fit` command (model loading and validations included) and the valid AUCs that `fit` logged at that
step. Reference runs already trained elsewhere (`--reference NAME=RUN_FOLDER`) are read, not trained.
Only valid halves are used: choosing a recipe must not look at the test halves.

    python scripts/recipe_study.py --reference roberta=runs/roberta --reference concept_max=runs/concept_max
"""

import argparse
import csv
import fcntl
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch
import yaml

CONFIGS = Path(__file__).parents[1] / "configs" / "models"
COLUMNS = ("variant", "config", "overrides", "steps", "pairs_seen", "train_wall_s", "val_auc_pep3k", "val_auc_20q")


@dataclass(frozen=True)
class Variant:
    name: str
    config: str
    overrides: tuple[str, ...]


def variants(roberta_checkpoint: str) -> list[Variant]:
    """The study's variants, in the order they are run."""
    init = f"--model.init_from={roberta_checkpoint}"
    linear = "--model.scheduler.init_args.decay=linear"
    nearby = "--model.abstraction_sampling=nearby"
    return [
        Variant("concept_max-init", "concept_max.yaml", (init,)),
        Variant("concept_max-init-linear", "concept_max.yaml", (init, linear)),
        Variant("concept_max-init-linear-nearby", "concept_max.yaml", (init, linear, nearby)),
        Variant("roberta-linear", "roberta.yaml", (linear,)),
    ]


def relocated_config(config: Path, folder: Path) -> dict:
    """`config` with its root, logger and checkpoint folders moved from its own run folder into `folder`."""
    loaded = yaml.safe_load(config.read_text())
    trainer = loaded["trainer"]
    old = str(trainer["default_root_dir"])

    def moved(path: str) -> str:
        if not str(path).startswith(old):
            raise SystemExit(f"{config}: {path} is outside {old}; the study cannot move it")
        return str(folder) + str(path)[len(old) :]

    trainer["default_root_dir"] = str(folder)
    for part in trainer.get("logger") or []:
        part["init_args"]["save_dir"] = moved(part["init_args"]["save_dir"])
    for part in trainer.get("callbacks") or []:
        if "dirpath" in part.get("init_args", {}):
            part["init_args"]["dirpath"] = moved(part["init_args"]["dirpath"])
    return loaded


def final_validation(run: Path) -> dict[str, float]:
    """The last `step` and valid AUCs logged by the CSV logger of a run folder (its newest version)."""
    logs = sorted(run.glob("logs/version_*/metrics.csv"), key=lambda p: int(p.parent.name.split("_")[1]))
    if not logs:
        raise SystemExit(f"{run}: no logs/version_*/metrics.csv; was it trained with the CSV logger?")
    with logs[-1].open() as file:
        rows = [row for row in csv.DictReader(file) if row.get("val/auc_pep3k") and row.get("val/auc_20q")]
    if not rows:
        raise SystemExit(f"{logs[-1]}: no validation row with val/auc_pep3k and val/auc_20q")
    last = rows[-1]
    return {"step": int(last["step"]), "pep3k": float(last["val/auc_pep3k"]), "20q": float(last["val/auc_20q"])}


def summary(name: str, config: str, overrides: str, run: Path, wall: float | None) -> dict[str, object]:
    """One table row for a trained run folder; its last validation must be at its `last.ckpt`'s step."""
    checkpoint = torch.load(run / "checkpoints" / "last.ckpt", map_location="cpu", weights_only=True)
    steps = int(checkpoint["global_step"])
    saved = sorted(run.glob("logs/version_*/config.yaml"))
    batch = yaml.safe_load(saved[-1].read_text())["data"]["batch_size"] if saved else None
    validation = final_validation(run)
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
    }


def train(variant: Variant, out: Path, lock: Path | None) -> float:
    """Run `plausibility fit` for one variant (holding `lock`, if given); the wall seconds it took."""
    folder = out / variant.name
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "config.yaml"
    config.write_text(yaml.safe_dump(relocated_config(CONFIGS / variant.config, folder)))
    command = [sys.executable, "-m", "plausibility", "fit", f"--config={config}", *variant.overrides]
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
        raise SystemExit(f"{variant.name}: plausibility fit failed (exit {done.returncode}); see {folder / 'fit.log'}")
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
        "--lock", type=Path, help="a lock file each run waits for, so runs never share the cores with other jobs"
    )
    args = parser.parse_args()

    rows = []
    for reference in args.reference:
        name, _, folder = reference.partition("=")
        rows.append(summary(name, "(reference)", "", Path(folder), None))
    for variant in variants(args.roberta_checkpoint):
        folder = args.out / variant.name
        if args.only and variant.name not in args.only:
            if not (folder / "wall_seconds").is_file():
                continue
            wall = float((folder / "wall_seconds").read_text())  # trained by an earlier call
        else:
            wall = train(variant, args.out, args.lock)
        rows.append(summary(variant.name, variant.config, " ".join(variant.overrides), folder, wall))
        write_table(rows, args.out)
    write_table(rows, args.out)


if __name__ == "__main__":
    main()

"""`plausibility export`: a checkpoint (or a run folder's last one) as a compact, pickle-free model folder."""

import argparse
from pathlib import Path

_EPILOG = """examples:
  plausibility export runs/concept_max exports/concept_max
  plausibility export runs/roberta/checkpoints/last.ckpt exports/roberta --no-evaluate
  plausibility score person breathe air --model exports/concept_max
"""


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a trained model as fp16 safetensors with its config, lexicon, calibration and card",
        description="Write DIR/model.safetensors (the net's weights in fp16), config.yaml, lexicon.json, "
        "calibration.json (Platt scaling on a seeded slice of training pairs) and MODEL_CARD.md (with AUC "
        "and 95% intervals, and CCΔ / LER on the test halves, measured on the exported weights). DIR is then a "
        "SPEC for every --model.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "source", metavar="RUN_OR_CKPT", help="a checkpoint, or a run folder (its checkpoints/last.ckpt)"
    )
    parser.add_argument("output", type=Path, metavar="DIR", help="the folder to write (new or empty)")
    parser.add_argument("--overwrite", action="store_true", help="replace DIR even if it holds files")
    parser.add_argument(
        "--no-evaluate", action="store_true", help="skip the AUC and CCΔ / LER of Pep-3k and 20Q for the card"
    )
    parser.add_argument(
        "--calibration-pairs", type=int, default=1000, metavar="N", help="training pairs to calibrate on (0: none)"
    )
    parser.add_argument("--pairs", type=Path, help="pairs file to calibrate on (default: the run's own, else bundled)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the calibration slice and the bootstrap")
    parser.add_argument(
        "--trained-by",
        metavar="TEXT",
        help='the commit and command that trained it, for the card, e.g. "at commit abc1234 with '
        '`plausibility fit --config configs/models/roberta.yaml`"',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from plausibility.errors import PlausibilityError
    from plausibility.models.export import export_model

    if args.calibration_pairs < 0:
        raise PlausibilityError(f"--calibration-pairs must be 0 or more, got {args.calibration_pairs}")
    result = export_model(
        args.source,
        args.output,
        overwrite=args.overwrite,
        evaluate=not args.no_evaluate,
        calibration_pairs=args.calibration_pairs,
        pairs=args.pairs,
        seed=args.seed,
        trained_by=args.trained_by,
    )
    print(f"exported step {result.global_step} to {result.folder}")
    for name, size in result.sizes.items():
        print(f"  {size / 2**20:9.2f} MiB  {name}")
    for dataset, halves in result.auc.items():
        figures = ", ".join(f"{split} {a.estimate:.3f} [{a.low:.3f}, {a.high:.3f}]" for split, a in halves.items())
        print(f"AUC {dataset}: {figures}")
    for dataset, values in result.consistency.items():
        print(
            f"consistency {dataset} test: CCΔ {values['ccd']:.4f}, scale-free {values['ccd_scale_free']:.4f}, "
            f"LER {values['ler']:.3f}"
        )
    if result.calibration is not None:
        c = result.calibration
        print(f"calibration: {c.describe()} on {c.n} events; ECE {c.ece_before:.4f} before, {c.ece_after:.4f} after")
        for half, ece in result.valid_ece.items():
            print(f"  calibrated ECE on {half}: {ece:.4f}")
    return 0

"""`plausibility export`: a trained model (or an ensemble) as a compact, pickle-free folder with its card."""

import argparse
from pathlib import Path

_EPILOG = """examples:
  plausibility export runs/concept_max exports/concept_max
  plausibility export runs/roberta/checkpoints/last.ckpt exports/roberta --no-evaluate
  plausibility export exports/concept_max exports/concept_max-judged --calibration judgements
  plausibility export 'ensemble:conceptmax+2*zero-shot' exports/mine --calibration judgements
  plausibility export 'stack:ngram+reversal:ngram+restriction' exports/stacked --plain-weight 5
  plausibility score person breathe air --model exports/concept_max
"""


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a trained model (or an ensemble) as a folder with its calibration, figures and card",
        description="Write DIR/model.safetensors (the net's weights in fp16), config.yaml, lexicon.json, "
        "calibration.json, evaluation.json and README.md, the card (AUC with 95% intervals, CCΔ / LER on the test "
        "halves and how the probabilities fit each half, measured on the exported weights). An ensemble SPEC gives a "
        "folder with its config, calibration, figures and card. DIR is then a SPEC for every --model.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "source",
        metavar="SOURCE",
        help="a checkpoint, a run folder (its checkpoints/last.ckpt), an exported folder, an ensemble: SPEC, or "
        "stack:F+F+...: a logistic regression over features (a SPEC's log-odds, reversal:SPEC, restriction) fitted "
        "on the judged valid halves of Pep-3k, 20Q and plain (its calibration: --calibration is not used)",
    )
    parser.add_argument("output", type=Path, metavar="DIR", help="the folder to write (new or empty)")
    parser.add_argument("--overwrite", action="store_true", help="replace DIR even if it holds files")
    parser.add_argument(
        "--no-evaluate", action="store_true", help="skip the AUC, CCΔ / LER and calibration figures for the card"
    )
    parser.add_argument(
        "--calibration",
        choices=("pairs", "judgements"),
        default="pairs",
        help="fit the calibration on training pairs (P: attested rather than a random swap; the default) or on "
        "the human-judged valid halves of Pep-3k and 20Q (P: judged plausible)",
    )
    parser.add_argument(
        "--calibration-pairs", type=int, default=1000, metavar="N", help="training pairs to calibrate on (0: none)"
    )
    parser.add_argument("--pairs", type=Path, help="pairs file to calibrate on (default: the run's own, else bundled)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the calibration slice and the bootstrap")
    parser.add_argument("--name", help="the model's name on its card (default: DIR's name)")
    parser.add_argument("--model-version", default="1.0", metavar="VERSION", help="its version (default: 1.0)")
    parser.add_argument("--summary", metavar="TEXT", help="what it is, in one line (default: from its config)")
    parser.add_argument(
        "--cold-start-runs",
        type=int,
        default=3,
        metavar="N",
        help="fresh processes that load DIR and score one event, for the card's cold start when evaluated (the "
        "median; default 3, after one that fills the caches; 0: none)",
    )
    parser.add_argument(
        "--plain-weight",
        type=float,
        default=1.0,
        metavar="W",
        help="a stack's fit: what one plain valid event weighs against one Pep-3k or 20Q event (default 1)",
    )
    parser.add_argument(
        "--no-consistency",
        action="store_true",
        help="skip CCΔ / LER on the test halves (a stack with a language model: most of an hour on 2 CPU cores)",
    )
    parser.add_argument(
        "--trained-by",
        metavar="TEXT",
        help='the commit and command that trained it, for the card, e.g. "at commit abc1234 with '
        '`plausibility fit --config roberta`"',
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from plausibility.errors import PlausibilityError
    from plausibility.release.export import export_model

    if args.calibration_pairs < 0:
        raise PlausibilityError(f"--calibration-pairs must be 0 or more, got {args.calibration_pairs}")
    if not args.plain_weight > 0:
        raise PlausibilityError(f"--plain-weight must be a positive number, got {args.plain_weight}")
    if args.cold_start_runs < 0:
        raise PlausibilityError(f"--cold-start-runs must be 0 or more, got {args.cold_start_runs}")
    result = export_model(
        args.source,
        args.output,
        overwrite=args.overwrite,
        evaluate=not args.no_evaluate,
        calibration=args.calibration,
        calibration_pairs=args.calibration_pairs,
        pairs=args.pairs,
        seed=args.seed,
        name=args.name,
        version=args.model_version,
        summary=args.summary,
        trained_by=args.trained_by,
        cold_start_runs=args.cold_start_runs,
        plain_weight=args.plain_weight,
        consistency=not args.no_consistency,
    )
    print(f"exported {result.config['name']} {result.config['version']} to {result.folder}")
    for name, size in result.sizes.items():
        print(f"  {size / 2**20:9.2f} MiB  {name}")
    if result.result is not None:
        for dataset, halves in result.result.auc.items():
            figures = ", ".join(f"{split} {a.estimate:.3f} [{a.low:.3f}, {a.high:.3f}]" for split, a in halves.items())
            print(f"AUC {dataset}: {figures}")
        for dataset, c in result.result.consistency.items():
            print(f"consistency {dataset} test: CCΔ {c.ccd:.4f}, scale-free {c.ccd_scale_free:.4f}, LER {c.ler:.3f}")
    if result.calibration is not None:
        print(f"calibration: {result.calibration.formula}, {result.calibration.describe()}")
        for half, figures in result.calibrated.items():
            own = result.own[half]
            print(
                f"  {half}: ECE {own.ece:.3f} -> {figures.ece:.3f}, accuracy at .5 {own.accuracy:.3f} -> "
                f"{figures.accuracy:.3f} (best threshold {figures.best_accuracy:.3f})"
            )
    return 0

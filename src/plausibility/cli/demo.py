"""`plausibility demo`: the main job on the embedded offline defaults, ending in a one-page report."""

import argparse
import logging
from pathlib import Path

from plausibility.cli.arguments import add_load_options, load_options, positive_int
from plausibility.errors import PlausibilityError


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    from plausibility.demo import DemoSettings

    defaults = DemoSettings()
    parser = subparsers.add_parser(
        "demo",
        help="train ConceptMax, evaluate, explain and score LIEDER on the offline defaults (2 to 3 min on 2 CPU cores)",
        description="Train ConceptMax (quick run) on the bundled triples, report AUC on Pep-3k and 20Q and "
        "CCΔ / LER, explain three queries, run the LIEDER base suite with the offline causal LM, and write "
        "report.md with its figures into --output.",
        epilog="Example: plausibility demo --output outputs/demo --steps 150",
    )
    parser.add_argument("--output", type=Path, default=defaults.output, help="report folder (default: %(default)s)")
    parser.add_argument("--steps", type=int, default=defaults.steps, help="training steps (default: %(default)s)")
    parser.add_argument(
        "--consistency-events",
        type=int,
        default=defaults.consistency_events,
        help="events per test half for CCΔ / LER (default: %(default)s)",
    )
    parser.add_argument("--lieder-limit", type=int, help="LIEDER items per condition (default: all)")
    parser.add_argument(
        "--explain-min-depth",
        type=positive_int,
        metavar="N",
        default=defaults.explain_min_depth,
        help="min depth of the grids the queries are explained over (default: %(default)s, the thesis's; the model's "
        "own is deeper, and leaves them no abstraction above their words)",
    )
    add_load_options(parser, "triples or texts per forward pass when scoring (default: each model's own)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from plausibility.demo import DemoSettings, run_demo
    from plausibility.devices import LoadOptions

    if args.steps < 1 or args.consistency_events < 1:
        raise PlausibilityError("--steps and --consistency-events must be at least 1")
    options = load_options(args)  # a device this machine lacks fails now, not after the training
    settings = DemoSettings(
        output=args.output,
        steps=args.steps,
        consistency_events=args.consistency_events,
        lieder_limit=args.lieder_limit,
        explain_min_depth=args.explain_min_depth,
        load=LoadOptions(**options),
    )
    result = run_demo(settings, say=logging.getLogger(__name__).info)
    for name, values in result.auc.items():
        print(f"AUC {name}: " + ", ".join(f"{split} {value:.3f}" for split, value in values.items()))
    for name, (ccd, ler) in result.consistency.items():
        print(f"consistency {name} test sample: CCΔ {ccd:.3f}, LER {ler:.3f}")
    for line in result.explanations:
        print(f"explained: {line}")
    print(f"LIEDER base mean accuracy over the comparisons: {result.lieder_accuracy:.3f}")
    print(f"report: {result.report.resolve()}")
    return 0

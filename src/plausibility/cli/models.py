"""`plausibility models`: the models shipped with the package, and the card of each."""

import argparse

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from plausibility.cli.console import results_console


def add_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    parser = subparsers.add_parser(
        "models",
        help="list the shipped models (name, what it is, test AUC, size), or print one's card",
        description="Without NAME: every model shipped under the package's data/models/, with its version, what it "
        "is, its test AUC on Pep-3k and 20Q and its size. With NAME: that model's card (its README.md). Any name "
        "listed is a SPEC for --model and load_scorer; `default` is what they use when none is given.",
        epilog="examples:\n  plausibility models\n  plausibility models default",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="a shipped model whose card to print")
    parser.add_argument("--plain", action="store_true", help="print the card as Markdown text, not rendered")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from plausibility.resources.paths import shipped_models
    from plausibility.scorers.shipped import read_card, shipped_model

    if args.name is not None:
        card = read_card(args.name)
        if args.plain:
            print(card, end="")
        else:
            Console().print(Markdown(card))  # a card's rules and headings span a terminal's width, or 80
        return 0
    table = Table(title="shipped models (plausibility models NAME prints one's card)")
    for column in ("name", "version", "what it is", "test AUC Pep-3k / 20Q", "size"):
        table.add_column(column, overflow="fold")
    for name in shipped_models():
        model = shipped_model(name)
        auc = " / ".join(f"{model.test_auc[dataset]:.3f}" for dataset in ("pep3k", "20q") if dataset in model.test_auc)
        table.add_row(model.name, model.version, model.summary, auc or "-", f"{model.size / 2**20:.1f} MiB")
    results_console().print(table)
    return 0

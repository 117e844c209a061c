"""Argument types and option groups shared by several subcommands."""

import argparse
import logging

from plausibility.devices import DTYPES, check_device_name, resolve_device
from plausibility.errors import CommandLineError, PlausibilityError
from plausibility.workers import worker_devices

DTYPE_HELP = (
    "precision of the model's weights and activations: float32, bfloat16 (faster on CPUs "
    "and GPUs that support it, and half the memory, but a text's log-probability can move by around a nat: "
    "check a float32 run before trusting small differences) or float16 (GPUs); default: float32, but the "
    "default model runs its language model in bfloat16 on a CPU with bfloat16 units, with a calibration of "
    "its own"
)

# What --batch-size counts for a command that loads SPEC scorers.
BATCH_HELP = (
    "triples (sentences, for a language model) per forward pass; default: the model's own (32 for a language "
    "model, the eval batch size a trained model was saved with)"
)


def positive_int(value: str) -> int:
    """An argparse type: a whole number of at least 1."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value!r}")
    return int(value)


def words(value: str) -> list[str]:
    """An argparse type: comma-separated words, lowercased (at least one)."""
    found = [word.strip().lower() for word in value.split(",") if word.strip()]
    if not found:
        raise argparse.ArgumentTypeError(f"give at least one word, comma-separated, got {value!r}")
    return found


def device_name(value: str) -> str:
    """An argparse type: a device name (`cpu`, `cuda`, `cuda:N`, `mps`, `auto`); its presence is checked on load."""
    try:
        return check_device_name(value)
    except PlausibilityError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_load_options(parser: argparse.ArgumentParser, batch: str) -> None:
    """`--device`, `--dtype` and `--batch-size`: where and how the command's models run.

    Args:
        batch: what one batch holds for this command, and its default, for the help.
    """
    group = parser.add_argument_group("where the models run")
    group.add_argument(
        "--device",
        type=device_name,
        metavar="DEVICE",
        help="cpu, cuda, cuda:N, mps or auto (the first GPU, else MPS, else the CPU); default: a language model "
        "auto, a trained model cpu. A device this machine lacks is an error before anything loads",
    )
    group.add_argument("--dtype", choices=DTYPES, help=DTYPE_HELP)
    group.add_argument(
        "--batch-size", type=positive_int, metavar="N", help=f"{batch}; scores move with it only by float rounding"
    )


def dtype_named(args: argparse.Namespace) -> str:
    """What result files record of `--dtype`: the one given, else `own` (each model's own: float32, but a
    stacked model's language model in bfloat16 on a CPU with bfloat16 units)."""
    return args.dtype or "own"


def load_options(args: argparse.Namespace) -> dict[str, object]:
    """The `load_scorer` keyword arguments the options of `add_load_options` give.

    A device this machine lacks fails here, before anything is read or loaded (a report would otherwise
    list each optional model as skipped for it).
    """
    if args.device is not None:
        resolve_device(args.device)
    return {"device": args.device, "dtype": args.dtype, "batch_size": args.batch_size}


def add_worker_options(parser: argparse.ArgumentParser, what: str) -> argparse._ArgumentGroup:
    """`--workers` and `--devices`: the command's scoring shared out between processes that each load the model.

    Args:
        what: what the workers share out, for the help.
    """
    group = parser.add_argument_group("every core and every GPU")
    group.add_argument(
        "--workers", type=positive_int, default=1, metavar="N",
        help=f"worker processes that share out {what}, each loading the model once and taking its share of the "
        "cores (default: 1, this process)",
    )  # fmt: skip
    group.add_argument(
        "--devices", type=positive_int, metavar="N", help="with --device cuda: one worker per GPU, cuda:0 to cuda:N-1"
    )
    return group


def check_worker_options(args: argparse.Namespace) -> None:
    """`--devices` names the workers itself, and only on GPUs: one line when the options do not go together."""
    if args.devices and args.workers > 1:
        raise CommandLineError("--devices N starts one worker per GPU; drop --workers")
    worker_devices(args.workers, args.device, args.devices)


class _OldName(argparse.Action):
    """An option's former name: it still works, with a warning that names the option to use."""

    def __init__(self, option_strings: list[str], dest: str, new: str, extend: bool = False, **kwargs: object) -> None:
        super().__init__(option_strings, dest, help=argparse.SUPPRESS, **kwargs)  # type: ignore[arg-type]
        self.new, self.extend = new, extend

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option: str | None = None
    ) -> None:
        logging.getLogger(__name__).warning("%s is an old name of %s; say %s", option, self.new, self.new)
        if self.extend:
            values = [*(getattr(namespace, self.dest) or []), *values]  # type: ignore[misc]
        setattr(namespace, self.dest, values)


def add_old_name(parser: argparse.ArgumentParser, old: str, new: str, dest: str, **kwargs: object) -> None:
    """`old` as a hidden alias of the option `new` (same `dest`, `type` and so on), warning when used."""
    parser.add_argument(old, dest=dest, action=_OldName, new=new, **kwargs)  # type: ignore[arg-type]

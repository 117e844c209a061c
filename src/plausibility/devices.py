"""Where and how a loaded model runs: device and dtype names, resolved once, and the options a loader takes."""

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from plausibility.errors import DeviceUnavailableError, PlausibilityError, UnknownNameError

if TYPE_CHECKING:
    import torch

DType = Literal["float32", "bfloat16", "float16"]
DTYPES: tuple[str, ...] = get_args(DType)
# The names a device is given by; `auto` is the first of cuda, mps and cpu that is there.
DEVICE_NAMES = ("auto", "cpu", "cuda", "cuda:N", "mps")
_DEVICE = re.compile(r"auto|cpu|mps|cuda(:\d+)?")
_ANOTHER = "choose cpu or auto"


def check_device_name(name: str) -> str:
    """`name` if it is one of `DEVICE_NAMES` (any `cuda:N`); an unknown name fails with the known ones."""
    if not _DEVICE.fullmatch(name):
        raise UnknownNameError("device", name, DEVICE_NAMES)
    return name


def check_dtype(name: str) -> DType:
    """`name` if it is one of `DTYPES`; an unknown one fails with the known ones."""
    if name not in DTYPES:
        raise UnknownNameError("dtype", name, DTYPES)
    return name  # type: ignore[return-value]


def resolve_device(name: str) -> "torch.device":
    """The torch device `name` stands for, checked to be on this machine.

    `auto` is the first GPU when CUDA sees one, else Apple's MPS when it is there, else the CPU.
    """
    import torch

    check_device_name(name)
    if name == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        return torch.device("mps" if torch.backends.mps.is_available() else "cpu")
    if name.startswith("cuda"):
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if count == 0:
            raise DeviceUnavailableError(f"device {name!r}: no CUDA GPU is visible on this machine; {_ANOTHER}")
        index = int(name.partition(":")[2] or 0)
        if index >= count:
            known = ", ".join(f"cuda:{i}" for i in range(count))
            raise DeviceUnavailableError(f"device {name!r}: this machine's CUDA GPUs are {known}; choose one of them")
    if name == "mps" and not torch.backends.mps.is_available():
        raise DeviceUnavailableError(f"device 'mps': Apple's MPS backend is not available here; {_ANOTHER}")
    return torch.device(name)


def has_bfloat16_units() -> bool:
    """Whether this CPU multiplies bfloat16 natively (AVX512_BF16 or AMX), where a language model runs about
    1.8x faster in bfloat16 than in float32; elsewhere bfloat16 is emulated and slower."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:  # not Linux: no way to tell, so no bfloat16
        return False
    flags = {flag for line in text.splitlines() if line.startswith("flags") for flag in line.split()}
    return bool(flags & {"avx512_bf16", "amx_bf16"})


def fast_precision(device: "torch.device") -> DType:
    """The precision a model that ships a calibration for both runs in: bfloat16 on a CPU with bfloat16 units,
    float32 elsewhere (a GPU included: its figures were measured on CPUs).

    `PLAUSIBILITY_PRECISION=float32` (or `bfloat16`) chooses for every such model in the process, where no
    `--dtype` is given: the docs' examples run in float32, so that they print the same on every machine.
    """
    if chosen := os.environ.get("PLAUSIBILITY_PRECISION"):
        return check_dtype(chosen)
    return "bfloat16" if device.type == "cpu" and has_bfloat16_units() else "float32"


def resolve_dtype(name: str) -> "torch.dtype":
    """The torch dtype `name` stands for."""
    import torch

    return getattr(torch, check_dtype(name))


@dataclass(frozen=True)
class LoadOptions:
    """How every scorer a SPEC names is loaded; wrappers hand the same options to the scorer they wrap.

    Attributes:
        device: one of `DEVICE_NAMES`; None keeps each scorer's own default (a language model: `auto`; a
            trained checkpoint or exported folder: `cpu`).
        dtype: the precision of the model's weights and activations (log-probabilities are still summed in
            float32 or wider); None keeps each scorer's own: float32, but for a stacked model's language model,
            which runs in `fast_precision`.
        batch_size: sequences (or triples) per forward pass; None keeps each scorer's own (a language model:
            32; a trained model: the `eval_batch_size` it was saved with). Scores move with it only by float rounding.
    """

    device: str | None = None
    dtype: DType | None = None
    batch_size: int | None = None

    def __post_init__(self) -> None:
        if self.device is not None:
            check_device_name(self.device)
        if self.dtype is not None:
            check_dtype(self.dtype)
        if self.batch_size is not None and (isinstance(self.batch_size, bool) or self.batch_size < 1):
            raise PlausibilityError(f"batch size {self.batch_size!r}: give a whole number of at least 1")

    def torch_device(self, default: str) -> "torch.device":
        """The device to load onto: the chosen one, else `default`, checked to be on this machine."""
        return resolve_device(self.device or default)

    def torch_dtype(self) -> "torch.dtype":
        return resolve_dtype(self.dtype or "float32")


# Each scorer's own defaults: float32, its own device and batch size.
DEFAULT_OPTIONS = LoadOptions()

"""A checkpoint of `plausibility fit`, read without unpickling: its saved config and its net's weights."""

from pathlib import Path

import torch

from plausibility.errors import DataFormatError, ResourceMissingError


def read_checkpoint(path: str) -> dict:
    """A checkpoint's contents on the CPU, read as tensors and plain containers only."""
    if not Path(path).is_file():
        raise ResourceMissingError(f"{path}: no such checkpoint; train one with `plausibility fit`")
    try:
        # weights_only: tensors and plain containers only, so a checkpoint cannot run code when read.
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for unreadable or unsafe files
        raise DataFormatError(f"{path}: not a readable checkpoint ({str(error).splitlines()[0]})") from error


def net_state_dict(path: str, checkpoint: dict) -> dict[str, torch.Tensor]:
    """The net's weights of a checkpoint's system state (every key is `net.`-prefixed)."""
    state = checkpoint.get("state_dict")
    if not isinstance(state, dict) or not state:
        raise DataFormatError(f"{path}: no weights in the checkpoint; use one written by `plausibility fit`")
    others = [name for name in state if not name.startswith("net.")]
    if others:
        raise DataFormatError(f"{path}: weights outside the net ({others[0]!r}); use one written by `plausibility fit`")
    return {name.removeprefix("net."): tensor for name, tensor in state.items()}


def checkpoint_of(source: str | Path) -> Path:
    """The checkpoint a RUN_OR_CKPT names: the file itself, or a run folder's `checkpoints/last.ckpt`."""
    path = Path(source)
    if path.is_dir():
        last = path / "checkpoints" / "last.ckpt"
        if not last.is_file():
            raise ResourceMissingError(f"{source}: no checkpoints/last.ckpt; give a checkpoint or a run folder of fit")
        return last
    if not path.is_file():
        raise ResourceMissingError(f"{source}: no such checkpoint or run folder; train one with `plausibility fit`")
    return path

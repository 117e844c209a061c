"""Device and dtype names resolve in one place; a name this machine cannot serve fails in one line."""

import pytest
import torch

from plausibility.devices import LoadOptions, resolve_device, resolve_dtype
from plausibility.errors import DeviceUnavailableError, PlausibilityError, UnknownNameError


def test_names_resolve_to_torch_objects() -> None:
    assert resolve_device("cpu") == torch.device("cpu")
    expected = "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"
    assert resolve_device("auto") == torch.device(expected)
    assert [resolve_dtype(name) for name in ("float32", "bfloat16", "float16")] == [
        torch.float32,
        torch.bfloat16,
        torch.float16,
    ]


def test_unknown_names_list_the_known_ones() -> None:
    with pytest.raises(UnknownNameError) as raised:
        resolve_device("tpu")
    assert str(raised.value) == "unknown device 'tpu'; known: auto, cpu, cuda, cuda:N, mps"
    with pytest.raises(UnknownNameError) as raised:
        LoadOptions(dtype="fp8")  # type: ignore[arg-type]
    assert str(raised.value) == "unknown dtype 'fp8'; known: bfloat16, float16, float32"
    with pytest.raises(UnknownNameError) as raised:
        LoadOptions(device="cuda:x")
    known = "auto, cpu, cuda, cuda:N, mps"
    assert str(raised.value) == f"unknown device 'cuda:x'; known: {known}; did you mean 'cuda:N' or 'cuda'?"
    with pytest.raises(PlausibilityError) as raised:
        LoadOptions(batch_size=0)
    assert str(raised.value) == "batch size 0: give a whole number of at least 1"


@pytest.mark.skipif(torch.cuda.is_available(), reason="needs a machine without a CUDA GPU")
def test_a_missing_gpu_is_named_with_the_fix() -> None:
    for name in ("cuda", "cuda:1"):
        with pytest.raises(DeviceUnavailableError) as raised:
            resolve_device(name)
        assert str(raised.value) == f"device {name!r}: no CUDA GPU is visible on this machine; choose cpu or auto"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_gpu_index_past_the_last_is_named_with_the_ones_there() -> None:
    count = torch.cuda.device_count()
    known = ", ".join(f"cuda:{i}" for i in range(count))
    with pytest.raises(DeviceUnavailableError) as raised:
        resolve_device(f"cuda:{count}")
    assert str(raised.value) == f"device 'cuda:{count}': this machine's CUDA GPUs are {known}; choose one of them"
    assert resolve_device(f"cuda:{count - 1}") == torch.device(f"cuda:{count - 1}")


@pytest.mark.skipif(torch.backends.mps.is_available(), reason="needs a machine without Apple's MPS")
def test_a_missing_mps_is_named_with_the_fix() -> None:
    with pytest.raises(DeviceUnavailableError) as raised:
        resolve_device("mps")
    assert str(raised.value) == "device 'mps': Apple's MPS backend is not available here; choose cpu or auto"

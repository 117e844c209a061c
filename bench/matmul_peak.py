"""Benchmark: the CPU's matrix-product rate in float32 and bfloat16, with 1 and 2 threads, at the shape of the
offline language model's MLP (576 -> 1536, 320 token rows): the ceiling a language model's scoring runs under.

A scorer whose float32 passes already run near this rate can only go faster by doing fewer products (fewer
tokens) or cheaper ones (bfloat16, which moves its scores). Ratios are against float32 on one thread.

    .venv/bin/python bench/matmul_peak.py [--repeats 200]
"""

import argparse
import time

import torch

ROWS, INNER, OUTER = 320, 576, 1536


def rate(dtype: torch.dtype, threads: int, repeats: int) -> float:
    """GFLOP/s of `repeats` products of a (ROWS, INNER) batch by an (OUTER, INNER) weight."""
    torch.set_num_threads(threads)
    inputs, weight = torch.randn(ROWS, INNER, dtype=dtype), torch.randn(OUTER, INNER, dtype=dtype)
    for _ in range(5):  # the first products pick their kernels
        torch.nn.functional.linear(inputs, weight)
    start = time.perf_counter()
    for _ in range(repeats):
        torch.nn.functional.linear(inputs, weight)
    return 2 * ROWS * INNER * OUTER * repeats / (time.perf_counter() - start) / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    baseline = rate(torch.float32, 1, args.repeats)
    for threads in (1, 2):
        for dtype in (torch.float32, torch.bfloat16):
            measured = rate(dtype, threads, args.repeats)
            print(f"{threads} thread(s) {str(dtype):15} {measured:8.0f} GFLOP/s  {measured / baseline:5.2f}x")


if __name__ == "__main__":
    main()

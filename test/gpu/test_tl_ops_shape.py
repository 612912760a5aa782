"""tl.join, tl.interleave and tl.debug_barrier against PyTorch: random
inputs, poisoned outputs, ragged sizes (masked tails)."""

import pytest
import torch

from conftest import real_compiler
from harness import check, random_tensor
from txl_kernels_tl_ops import (debug_barrier_kernel, flip_1d_kernel,
                                 flip_kernel, interleave_kernel, join_kernel)

pytestmark = real_compiler


def cdiv(a, b):
    return -(-a // b)


@pytest.mark.parametrize("n", [1, 100, 256, 1000, 4097])
def test_join(n):
    a = random_tensor((n,), torch.float16)
    b = random_tensor((n,), torch.float16)
    out = torch.empty((n, 2), dtype=torch.float16, device="cuda")

    def launch(out_, a_, b_):
        join_kernel[(cdiv(n, 256),)](a_, b_, out_, n, BLOCK=256)

    check(launch, lambda a_, b_: torch.stack([a_, b_], dim=-1),
          inputs=[a, b], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("M,N", [(1, 16), (37, 16), (64, 32), (100, 8)])
def test_interleave(M, N):
    a = random_tensor((M, N), torch.float32)
    b = random_tensor((M, N), torch.float32)
    out = torch.empty((M, 2 * N), dtype=torch.float32, device="cuda")

    def launch(out_, a_, b_):
        interleave_kernel[(cdiv(M, 32),)](a_, b_, out_, M, N=N, BM=32)

    check(launch,
          lambda a_, b_: torch.stack([a_, b_], dim=-1).reshape(M, 2 * N),
          inputs=[a, b], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("BLOCK,programs", [(128, 1), (256, 3), (1024, 5)])
def test_debug_barrier(BLOCK, programs):
    x = random_tensor((programs * BLOCK,), torch.float32)
    out = torch.empty_like(x)

    def launch(out_, x_):
        debug_barrier_kernel[(programs,)](x_, out_, BLOCK=BLOCK)

    def reference(x_):
        blocks = x_.view(programs, BLOCK)
        return (blocks.flip(1) * 2 + 1).reshape(-1)

    check(launch, reference, inputs=[x], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64,
                                   torch.int8])
@pytest.mark.parametrize("N", [2, 16, 256])
def test_flip_last(N, dtype):
    M, BM = 37, 16
    x = random_tensor((M, N), dtype)
    out = torch.empty_like(x)

    def launch(out_, x_):
        flip_kernel[(cdiv(M, BM),)](x_, out_, M, N=N, BM=BM, DIM=-1)

    check(launch, lambda x_: x_.flip(1), inputs=[x], outputs=[out], atol=0,
          rtol=0)


def test_flip_rows():
    """dim=0 flips within each [BM, N] block."""
    M, N, BM = 64, 32, 16
    x = random_tensor((M, N), torch.float32)
    out = torch.empty_like(x)

    def launch(out_, x_):
        flip_kernel[(M // BM,)](x_, out_, M, N=N, BM=BM, DIM=0)

    check(launch, lambda x_: x_.view(M // BM, BM, N).flip(1).reshape(M, N),
          inputs=[x], outputs=[out], atol=0, rtol=0)


@pytest.mark.parametrize("N", [1, 8, 1024])
def test_flip_1d(N):
    x = random_tensor((N,), torch.float32)
    out = torch.empty_like(x)
    check(lambda out_, x_: flip_1d_kernel[(1,)](x_, out_, N=N),
          lambda x_: x_.flip(0), inputs=[x], outputs=[out], atol=0, rtol=0)

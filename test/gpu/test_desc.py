"""desc.load / desc.store on the GPU: blocks in and out through TMA with
out-of-bounds elements read as zero and stores clipped to the tensor, one
call site reused across a loop (each use waits on its own arrival), and a
descriptor matmul. Random inputs, NaN-poisoned outputs inside a larger
tensor, float64 references."""

import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler
from harness import random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "test", "gpu"))
pytest.importorskip("triton")  # the kernels import triton.language

import txl  # noqa: E402
import txl_kernels_desc as kernels  # noqa: E402


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


def poisoned_window(M, N, dtype):
    big = torch.full((M + 5, N + 24), float("nan"), device="cuda",
                     dtype=dtype)
    return big, big[2:2 + M, 8:8 + N]


def assert_outside_untouched(big, M, N):
    frame = big.clone()
    frame[2:2 + M, 8:8 + N] = 0
    assert torch.isnan(frame).sum().item() == frame.numel() - M * N


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32],
                         ids=["fp16", "fp32"])
@pytest.mark.parametrize("size", [(64, 64), (128, 256), (100, 72),
                                  (1, 8), (257, 1000)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block", [(64, 64), (128, 32)],
                         ids=lambda b: "x".join(map(str, b)))
def test_desc_load_store(dtype, size, block):
    if not hopper():
        pytest.skip("TMA needs sm_90")
    M, N = size
    bm, bn = block
    x = random_tensor((M, N), dtype)
    big, y = poisoned_window(M, N, dtype)
    xd = txl.TensorDescriptor.from_tensor(x, [bm, bn])
    yd = txl.TensorDescriptor(y, [M, N], list(y.stride()), [bm, bn])
    grid = ((M + bm - 1) // bm,)
    kernels.desc_axpb[grid](xd, yd, M, N, 1.5, -0.25, BLOCK_M=bm,
                            BLOCK_N=bn, num_warps=4)
    torch.cuda.synchronize()
    want = (x.double() * 1.5 - 0.25).to(dtype)
    torch.testing.assert_close(y, want, rtol=2e-3, atol=2e-3)
    assert_outside_untouched(big, M, N)


@pytest.mark.parametrize("size", [(128, 128, 64), (256, 512, 320),
                                  (200, 136, 104), (64, 8, 2056)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block", [(128, 128, 64), (64, 64, 32)],
                         ids=lambda b: "x".join(map(str, b)))
def test_desc_matmul(size, block):
    if not hopper():
        pytest.skip("TMA needs sm_90")
    M, N, K = size
    bm, bn, bk = block
    a = random_tensor((M, K), torch.float16)
    b = random_tensor((K, N), torch.float16)
    big, c = poisoned_window(M, N, torch.float16)
    ad = txl.TensorDescriptor.from_tensor(a, [bm, bk])
    bd = txl.TensorDescriptor.from_tensor(b, [bk, bn])
    cd = txl.TensorDescriptor(c, [M, N], list(c.stride()), [bm, bn])
    grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
    kernels.desc_matmul[grid](ad, bd, cd, M, N, K, BLOCK_M=bm, BLOCK_N=bn,
                              BLOCK_K=bk, num_warps=4)
    torch.cuda.synchronize()
    want = (a.double() @ b.double()).to(torch.float16)
    torch.testing.assert_close(c, want, rtol=1e-3, atol=1e-2 * max(1, K ** 0.5 / 8))
    assert_outside_untouched(big, M, N)

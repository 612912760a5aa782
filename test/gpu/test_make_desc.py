"""tl.make_tensor_descriptor on the GPU: TMA descriptors built in the
kernel (tensormap.replace in shared memory, copied to the runtime's
global scratch) used by desc.load / desc.store, txl.tma_load / tma_store,
in a persistent loop and in a matmul. Ragged shapes (out-of-bounds reads
are zero, out-of-bounds stores dropped: outputs sit inside a NaN-poisoned
larger tensor whose frame must stay NaN), a strided (non-contiguous rows)
view, and blocks whose rows are 32, 64, 128 and 256 bytes (swizzles
32/64/128, the last as two boxes). Float64 references."""

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
import txl_kernels_make_desc as kernels  # noqa: E402

import triton.language as tl  # noqa: E402

TL_DTYPES = {torch.float16: tl.float16, torch.bfloat16: tl.bfloat16,
             torch.float32: tl.float32}


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("TMA needs sm_90")


def poisoned_window(M, N, dtype):
    # Row stride N + 24 elements: a multiple of 16 bytes for every N that
    # is a multiple of 8 (TMA needs 16-byte row strides).
    big = torch.full((M + 5, N + 24), float("nan"), device="cuda",
                     dtype=dtype)
    return big, big[2:2 + M, 8:8 + N]


def assert_frame_untouched(big, M, N):
    frame = big.clone()
    frame[2:2 + M, 8:8 + N] = 0
    assert torch.isnan(frame).sum().item() == frame.numel() - M * N


def cdiv(a, b):
    return (a + b - 1) // b


# (dtype, block): rows of 32, 64, 128 and 256 bytes.
CASES = [
    (torch.float16, (64, 16)), (torch.float16, (64, 32)),
    (torch.float16, (64, 64)), (torch.float16, (32, 128)),
    (torch.bfloat16, (64, 64)), (torch.bfloat16, (128, 32)),
    (torch.float32, (64, 8)), (torch.float32, (64, 16)),
    (torch.float32, (64, 32)), (torch.float32, (32, 64)),
]


@pytest.mark.parametrize("dtype,block", CASES,
                         ids=lambda c: str(c).replace("torch.", "")
                         .replace(", ", "x").strip("()"))
@pytest.mark.parametrize("size", [(100, 72), (1, 8), (257, 200)],
                         ids=lambda s: "x".join(map(str, s)))
def test_make_desc_add(dtype, block, size):
    M, N = size
    bm, bn = block
    x = random_tensor((M, N), dtype)
    # y is a strided view: rows of a wider tensor (non-contiguous).
    y_wide = random_tensor((M, N + 40), dtype)
    y = y_wide[:, 8:8 + N]
    big, out = poisoned_window(M, N, dtype)
    grid = (cdiv(M, bm), cdiv(N, bn))
    kernels.make_desc_add[grid](x, y, out, M, N, x.stride(0), y.stride(0),
                                out.stride(0), BLOCK_M=bm, BLOCK_N=bn,
                                num_warps=4)
    torch.cuda.synchronize()
    want = (x.double() + y.double()).to(dtype)
    torch.testing.assert_close(out, want, rtol=1e-2, atol=1e-2)
    assert_frame_untouched(big, M, N)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32],
                         ids=["fp16", "fp32"])
def test_make_desc_persistent(dtype):
    M, N, bm, bn = 300, 200, 64, 32
    x = random_tensor((M, N), dtype)
    big, out = poisoned_window(M, N, dtype)
    programs = 7  # fewer than the 5 x 7 tiles: each program loops
    kernels.make_desc_persistent[(programs,)](x, out, M, N, x.stride(0),
                                              out.stride(0), BLOCK_M=bm,
                                              BLOCK_N=bn, num_warps=4)
    torch.cuda.synchronize()
    want = (x.double() * 2 + 1).to(dtype)
    torch.testing.assert_close(out, want, rtol=1e-2, atol=1e-2)
    assert_frame_untouched(big, M, N)


@pytest.mark.parametrize("dtype,block", [(torch.float16, (64, 64)),
                                         (torch.bfloat16, (64, 32)),
                                         (torch.float32, (32, 32))],
                         ids=["fp16", "bf16", "fp32"])
def test_make_desc_tma(dtype, block):
    M, N = 150, 136
    bm, bn = block
    x = random_tensor((M, N), dtype)
    big, out = poisoned_window(M, N, dtype)
    grid = (cdiv(M, bm), cdiv(N, bn))
    kernels.make_desc_tma[grid](x, out, M, N, x.stride(0), out.stride(0),
                                BLOCK_M=bm, BLOCK_N=bn, DT=TL_DTYPES[dtype],
                                num_warps=4)
    torch.cuda.synchronize()
    want = (x.double() * 2 + 1).to(dtype)
    torch.testing.assert_close(out, want, rtol=1e-2, atol=1e-2)
    assert_frame_untouched(big, M, N)


@pytest.mark.parametrize("size", [(128, 128, 64), (200, 136, 104),
                                  (64, 8, 520)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block", [(128, 128, 64), (64, 64, 32)],
                         ids=lambda b: "x".join(map(str, b)))
def test_make_desc_matmul(size, block):
    M, N, K = size
    bm, bn, bk = block
    a = random_tensor((M, K), torch.float16)
    b = random_tensor((K, N), torch.float16)
    big, c = poisoned_window(M, N, torch.float16)
    grid = (cdiv(M, bm), cdiv(N, bn))
    kernels.make_desc_matmul[grid](a, b, c, M, N, K, a.stride(0), b.stride(0),
                                   c.stride(0), BLOCK_M=bm, BLOCK_N=bn,
                                   BLOCK_K=bk, num_warps=4)
    torch.cuda.synchronize()
    want = (a.double() @ b.double()).to(torch.float16)
    torch.testing.assert_close(c, want, rtol=1e-3,
                               atol=1e-2 * max(1, K ** 0.5 / 8))
    assert_frame_untouched(big, M, N)


def test_make_desc_scratch_grows():
    # The runtime's scratch buffer is sized by the grid and grows: a small
    # launch, then a larger one of the same kernel, both correct.
    dtype = torch.float16
    for M in (64, 64 * 40):
        N = 64
        x = random_tensor((M, N), dtype)
        out = torch.empty_like(x)
        kernels.make_desc_persistent[(cdiv(M, 64),)](
            x, out, M, N, x.stride(0), out.stride(0), BLOCK_M=64, BLOCK_N=64,
            num_warps=4)
        torch.cuda.synchronize()
        torch.testing.assert_close(out, (x.double() * 2 + 1).to(dtype),
                                   rtol=1e-2, atol=1e-2)

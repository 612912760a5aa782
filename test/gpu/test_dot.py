"""tl.dot on tensor cores: the tutorial-style matmul (examples/matmul.py, plain
Triton source) compiled by txl, against a float64 PyTorch reference on random
inputs with poisoned outputs, at aligned and ragged sizes, several tile
shapes, warp counts, strides (transposed operands) and input types."""

import os
import sys

import pytest
import torch

import txl
from txl import _capi
from conftest import REPO, real_compiler
from harness import check, random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "examples"))
pytest.importorskip("triton")  # the example imports triton.language

import matmul  # noqa: E402
import triton.language as tl  # noqa: E402

matmul_kernel = txl.jit(matmul.matmul_kernel)
# The mma.sync lowering (the sm_80 path) runs on any GPU from Ampere on, not
# only where it is the default: forced to sm_80 the kernel compiles to PTX
# that the driver JITs for the GPU at hand, so an H100 (whose default is
# wgmma) tests both lowerings.
matmul_kernel_sm80 = txl.jit(matmul.matmul_kernel, target="sm_80")

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps)
TILES = [(64, 64, 32, 4), (128, 128, 32, 8), (32, 64, 16, 4), (128, 64, 64, 4),
         (16, 16, 16, 1)]
SIZES = [(64, 64, 32), (128, 256, 64), (200, 150, 100), (1, 1, 1),
         (513, 257, 1000), (1024, 1024, 512)]
# input dtype -> (output dtype, atol, rtol). bf16 results are stored in fp32:
# bf16's own rounding (2^-8) would swamp the check; tf32 keeps 10 mantissa
# bits per product, so its error grows like sqrt(K) * 2^-11.
TYPES = {torch.float16: (torch.float16, 1e-2, 1e-3),
         torch.bfloat16: (torch.float32, 1e-2, 1e-3),
         torch.float32: (torch.float32, 5e-2, 1e-2)}


def matmul_call(c, a, b, tile):
    """(grid, args, kwargs) of one matmul_kernel launch."""
    bm, bn, bk, warps = tile
    M, K = a.shape
    N = b.shape[1]
    grid = (triton_cdiv(M, bm) * triton_cdiv(N, bn),)
    args = (a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
            b.stride(1), c.stride(0), c.stride(1))
    kwargs = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
                  num_warps=warps)
    return grid, args, kwargs


def launch_matmul(c, a, b, tile, kernel=matmul_kernel):
    grid, args, kwargs = matmul_call(c, a, b, tile)
    kernel[grid](*args, **kwargs)


def triton_cdiv(a, b):
    return (a + b - 1) // b


def run_case(size, tile, dtype, transpose_b=False, seed=0,
             kernel=matmul_kernel):
    """Checks one launch; returns the Launcher that ran."""
    M, N, K = size
    out_dtype, atol, rtol = TYPES[dtype]
    gen = torch.Generator(device="cuda").manual_seed(seed + M * 7919 + N * 31 + K)
    a = random_tensor((M, K), dtype, generator=gen)
    if transpose_b:  # B as a column-major view: stride_bk == 1
        b = random_tensor((N, K), dtype, generator=gen).t()
    else:
        b = random_tensor((K, N), dtype, generator=gen)
    c = torch.empty((M, N), device="cuda", dtype=out_dtype)
    check(lambda c_, a_, b_: launch_matmul(c_, a_, b_, tile, kernel),
          lambda a_, b_: a_ @ b_, inputs=[a, b], outputs=[c],
          atol=atol * max(1, K ** 0.5 / 8), rtol=rtol)
    _, args, kwargs = matmul_call(c, a, b, tile)
    return kernel.warmup(*args, **kwargs)  # compiled already: a cache hit


@pytest.mark.parametrize("size", SIZES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("tile", TILES, ids=lambda t: "_".join(map(str, t)))
def test_matmul_fp16(size, tile):
    run_case(size, tile, torch.float16)


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32],
                         ids=["bf16", "tf32"])
@pytest.mark.parametrize("size", [(128, 256, 64), (200, 150, 100),
                                  (513, 257, 1000)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("tile", [(64, 64, 32, 4), (128, 128, 32, 8)],
                         ids=lambda t: "_".join(map(str, t)))
def test_matmul_types(size, tile, dtype):
    run_case(size, tile, dtype)


# The PTX instruction each input type must lower to on the sm_80 path.
MMA_SYNC = {torch.float16: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            torch.bfloat16:
                "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
            torch.float32: "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"}
needs_sm80 = pytest.mark.skipif(torch.cuda.get_device_capability() < (8, 0),
                                reason="mma.sync needs sm_80 or newer")


def assert_mma_sync_kernel(launcher, dtype):
    """The launcher really ran the sm_80 lowering: compiled for sm_80, as
    PTX for the driver, with mma.sync of the input type and no wgmma."""
    assert launcher.metadata["target"] == "sm_80"
    assert launcher.metadata["cubin_producer"] == "driver"
    ptx = _capi.kernel_artifact(launcher.handle, "ptx").decode()
    assert MMA_SYNC[dtype] in ptx
    assert "wgmma" not in ptx


@needs_sm80
@pytest.mark.parametrize("size", [(200, 150, 100), (513, 257, 1000),
                                  (1024, 1024, 512)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("tile", [(64, 64, 32, 4), (128, 128, 32, 8),
                                  (32, 64, 16, 4)],
                         ids=lambda t: "_".join(map(str, t)))
def test_matmul_fp16_sm80(size, tile):
    launcher = run_case(size, tile, torch.float16, kernel=matmul_kernel_sm80)
    assert_mma_sync_kernel(launcher, torch.float16)


@needs_sm80
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32],
                         ids=["bf16", "tf32"])
def test_matmul_types_sm80(dtype):
    launcher = run_case((513, 257, 1000), (64, 64, 32, 4), dtype,
                        kernel=matmul_kernel_sm80)
    assert_mma_sync_kernel(launcher, dtype)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_matmul_transposed_b(dtype):
    run_case((300, 200, 160), (64, 64, 32, 4), dtype, transpose_b=True)


@txl.jit
def dot_forms_kernel(a_ptr, b_ptr, c_ptr, d_ptr, M: tl.constexpr,
                     N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    # acc argument, then the @ operator with an explicit add
    d = tl.dot(a, b, acc=c) + (a @ b)
    tl.store(d_ptr + rm[:, None] * N + rn[None, :], d)


@pytest.mark.parametrize("shape", [(16, 16, 16), (64, 32, 128), (32, 128, 32)])
def test_dot_acc_and_matmul_operator(shape):
    M, N, K = shape
    gen = torch.Generator(device="cuda").manual_seed(M + N + K)
    a = random_tensor((M, K), torch.float16, generator=gen)
    b = random_tensor((K, N), torch.float16, generator=gen)
    c = random_tensor((M, N), torch.float32, generator=gen)
    d = torch.empty((M, N), device="cuda", dtype=torch.float32)
    check(lambda d_, a_, b_, c_: dot_forms_kernel[(1,)](a_, b_, c_, d_, M=M,
                                                       N=N, K=K),
          lambda a_, b_, c_: c_ + 2 * (a_ @ b_), inputs=[a, b, c],
          outputs=[d], atol=1e-2, rtol=1e-4)

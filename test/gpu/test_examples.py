"""The example kernels (examples/*.py, written for Triton) compiled by txl and
checked against PyTorch references on random inputs with poisoned outputs."""

import os
import sys

import pytest
import torch

import txl
from conftest import REPO, real_compiler
from harness import check, random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "examples"))
pytest.importorskip("triton")  # the examples import triton.language

import argmax_rows  # noqa: E402
import fused_softmax  # noqa: E402
import layer_norm  # noqa: E402
import transpose_2d  # noqa: E402

softmax_kernel = txl.jit(fused_softmax.softmax_kernel)
layer_norm_fwd = txl.jit(layer_norm._layer_norm_fwd)
row_argmax_kernel = txl.jit(argmax_rows.row_argmax_kernel)
copy_2d_kernel = txl.jit(transpose_2d.copy_2d_kernel)
transpose_kernel = txl.jit(transpose_2d.transpose_kernel)


def cdiv(a, b):
    return (a + b - 1) // b


def next_pow2(n):
    return 1 << max(0, (n - 1).bit_length())


def softmax_warps(block):
    return 4 if block < 2048 else 8 if block < 4096 else 16


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16,
                                   torch.bfloat16])
@pytest.mark.parametrize("shape", [(1, 1), (37, 129), (128, 1000),
                                   (300, 2048), (64, 4097), (17, 16384)])
def test_softmax(shape, dtype):
    rows, cols = shape
    gen = torch.Generator(device="cuda").manual_seed(rows * 100003 + cols)
    x = random_tensor(shape, dtype, generator=gen) * 3
    out = torch.empty_like(x)
    block = next_pow2(cols)
    programs = min(rows, 4 * 132)

    def launch(o, a):
        softmax_kernel[(programs,)](o, a, a.stride(0), o.stride(0), rows, cols,
                                    BLOCK_SIZE=block, num_stages=1,
                                    num_warps=softmax_warps(block))

    # The source computes in the storage type (Triton reduces fp16/bf16 in
    # that type too), so half-precision rows carry that type's rounding.
    if dtype == torch.float32:
        atol, rtol = 1e-6, 1e-4
    else:
        atol, rtol = 1e-2, 5e-2
    check(launch, lambda a: torch.softmax(a, dim=1), [x], [out], atol=atol,
          rtol=rtol)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32])
@pytest.mark.parametrize("shape,block", [((1, 8), 16), ((33, 1000), 256),
                                         ((64, 4096), 1024),
                                         ((7, 5003), 2048)])
def test_layer_norm_forward(shape, block, dtype):
    rows, cols = shape
    gen = torch.Generator(device="cuda").manual_seed(cols)
    x = random_tensor(shape, dtype, generator=gen) + 0.5
    w = random_tensor((cols,), dtype, generator=gen)
    b = random_tensor((cols,), dtype, generator=gen)
    y = torch.empty_like(x)
    mean = torch.empty(rows, dtype=torch.float32, device="cuda")
    rstd = torch.empty(rows, dtype=torch.float32, device="cuda")
    eps = 1e-5

    def launch(y_, mean_, rstd_, x_, w_, b_):
        layer_norm_fwd[(rows,)](x_, y_, w_, b_, mean_, rstd_, x_.stride(0),
                                cols, eps, BLOCK_SIZE=block)

    def reference(x_, w_, b_):
        mu = x_.mean(dim=1)
        var = ((x_ - mu[:, None]) ** 2).mean(dim=1)
        r = 1 / torch.sqrt(var + eps)
        return (x_ - mu[:, None]) * r[:, None] * w_ + b_, mu, r

    atol = 1e-4 if dtype == torch.float32 else 2e-2
    check(launch, reference, [x, w, b], [y, mean, rstd], atol=atol,
          rtol=1e-3 if dtype == torch.float32 else 1e-2)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize("shape", [(1, 1), (5, 300), (129, 77), (1000, 999),
                                   (64, 4096)])
def test_row_argmax(shape, dtype):
    rows, cols = shape
    gen = torch.Generator(device="cuda").manual_seed(rows + cols)
    # Few distinct values, so ties happen and the first index must win.
    x = torch.randint(-20, 20, shape, device="cuda", generator=gen).to(dtype)
    idx = torch.empty(rows, dtype=torch.int32, device="cuda")
    val = torch.empty(rows, dtype=dtype, device="cuda")
    block = next_pow2(cols)

    def launch(i, v, a):
        row_argmax_kernel[(rows,)](a, i, v, cols, a.stride(0), BLOCK=block,
                                   num_warps=4 if block <= 2048 else 8)

    def reference(a):
        top = a.max(dim=1).values
        first = (a == top[:, None]).int().argmax(dim=1)  # first maximum
        return first.to(torch.int32), top

    check(launch, reference, [x], [idx, val], atol=0, rtol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16])
@pytest.mark.parametrize("shape", [(1, 1), (63, 65), (128, 256), (1000, 333)])
@pytest.mark.parametrize("tile", [(64, 64), (32, 128), (16, 16)])
def test_copy_and_transpose_2d(shape, tile, dtype):
    m, n = shape
    bm, bn = tile
    gen = torch.Generator(device="cuda").manual_seed(m * n)
    # A padded source (row stride > n) checks that strides are honoured.
    src = random_tensor((m, n + 5), dtype, generator=gen)[:, :n]
    copy_base = torch.full((m, n + 3), float("nan"), dtype=dtype,
                           device="cuda")
    copy_out = copy_base[:, :n]
    trans_out = torch.empty(n, m, dtype=dtype, device="cuda")
    grid = (cdiv(m, bm), cdiv(n, bn))

    def launch(c, t, s):
        copy_2d_kernel[grid](s, c, m, n, s.stride(0), c.stride(0),
                             BLOCK_M=bm, BLOCK_N=bn)
        transpose_kernel[grid](s, t, m, n, s.stride(0), t.stride(0),
                               BLOCK_M=bm, BLOCK_N=bn)

    check(launch, lambda s: (s, s.t()), [src], [copy_out, trans_out], atol=0,
          rtol=0)
    # The padding columns of the destination must stay untouched.
    assert torch.isnan(copy_base[:, n:]).all()

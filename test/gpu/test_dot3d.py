"""Batched and N-D tl.dot on the GPU (mma.sync tiles with a batch dim over
warps and registers; FMAs for fp64 and ieee fp32): every operand type of
Triton's test_dot3d (int8, fp16 with fp16 and fp32 results, bf16, fp32 at
tf32 and ieee, fp64), 1 to 16 warps, batches 1 to 8, ragged B, M, N and K
(masked), strided and transposed operands, an accumulator, a loop-carried
batched accumulator, and test_dot_multidim's ranks 3 to 6 with tl.trans.
Random inputs, float64 references, poisoned outputs."""

import pytest
import torch

from conftest import real_compiler
from harness import poison_
import triton.language as tl
from txl_kernels_dot3d import (dot3d_kernel, dot3d_loop_kernel,
                               dot_multidim_kernel)

pytestmark = real_compiler

# name -> (operand dtype, result dtype, tl out_dtype, precision, atol, rtol).
# fp16 results accumulate in fp16 (2^-11 per add); tf32 keeps 10 mantissa
# bits per product.
TYPES = {
    "int8": (torch.int8, torch.int32, tl.int32, "ieee", 0, 0),
    "fp16": (torch.float16, torch.float32, tl.float32, "ieee", 1e-2, 1e-3),
    "fp16_fp16": (torch.float16, torch.float16, tl.float16, "ieee", 6e-2, 1e-2),
    "bf16": (torch.bfloat16, torch.float32, tl.float32, "ieee", 1e-2, 1e-3),
    "tf32": (torch.float32, torch.float32, tl.float32, "tf32", 6e-2, 1e-2),
    "fp32_ieee": (torch.float32, torch.float32, tl.float32, "ieee", 1e-4, 1e-5),
    "fp64": (torch.float64, torch.float64, tl.float32, "ieee", 1e-10, 1e-10),
}


def cdiv(a, b):
    return (a + b - 1) // b


def operand(shape, dtype, gen):
    if dtype == torch.int8:
        return torch.randint(-8, 9, shape, device="cuda", generator=gen,
                             dtype=torch.int8)
    x = torch.randn(shape, device="cuda", generator=gen, dtype=torch.float64)
    return (x * 0.5).to(dtype)


def run(B, M, N, K, BB, BM, BN, BK, warps, name, has_acc=False,
        trans_a=False, trans_b=False, seed=0):
    dt, out_dt, out_tl, precision, atol, rtol = TYPES[name]
    gen = torch.Generator(device="cuda").manual_seed(
        seed + B * 1009 + M * 101 + N * 13 + K)
    a = operand((B, K, M) if trans_a else (B, M, K), dt, gen)
    b = operand((B, N, K) if trans_b else (B, K, N), dt, gen)
    if trans_a:
        a = a.transpose(1, 2)
    if trans_b:
        b = b.transpose(1, 2)
    c = operand((B, M, N), dt, gen).to(out_dt)
    out = poison_(torch.empty((B, M, N), device="cuda", dtype=out_dt))
    grid = (cdiv(M, BM), cdiv(N, BN), cdiv(B, BB))
    dot3d_kernel[grid](a, b, c, out, B, M, N, K, *a.stride(), *b.stride(),
                       *out.stride(), BB=BB, BM=BM, BN=BN, BK=BK, OUT=out_tl,
                       PRECISION=precision, HAS_ACC=has_acc, num_warps=warps)
    # float64 for the integer products too (exact: every sum is far below
    # 2**53; torch has no CUDA int64 batched matmul), rounded back below.
    want = a.double() @ b.double()
    if has_acc:
        want = want + c.double()
    torch.testing.assert_close(out, want.to(out_dt), atol=atol, rtol=rtol,
                               equal_nan=False)


def skip_if_too_big(BB, BM, BN, BK, name):
    # As test_core: operands staged in shared memory must fit in the 227 KB
    # of an H100 CTA (fp64 FMA dots of 8 batches at K = 64 do not; txlc
    # refuses them with a located error).
    if BB * (BM * BK + BK * BN) * TYPES[name][0].itemsize > 227 * 1024:
        pytest.skip("operands exceed shared memory (test_core skips too)")


# Triton's test_dot3d: B x num_warps x (M, N, K) x types, blocks 32 x 32
# (each program one [B, 32, 32] tile), and the large-block case.
@pytest.mark.parametrize("name", list(TYPES))
@pytest.mark.parametrize("MNK", [(64, 64, 64), (32, 32, 32)])
@pytest.mark.parametrize("warps", [1, 2, 4, 8, 16])
@pytest.mark.parametrize("B", [1, 2, 4, 8])
def test_dot3d_test_core_shapes(B, warps, MNK, name):
    M, N, K = MNK
    skip_if_too_big(B, 32, 32, K, name)
    run(B, M, N, K, B, 32, 32, K, warps, name)


def test_dot3d_large_blocks():
    run(4, 128, 128, 64, 4, 64, 64, 64, 4, "fp16_fp16")
    run(4, 128, 128, 64, 4, 64, 64, 64, 4, "fp16")


# Ragged sizes (masked tiles), batches split over programs, strided and
# transposed operands, an accumulator.
@pytest.mark.parametrize("name", list(TYPES))
@pytest.mark.parametrize("case", [
    # B, M, N, K, BB, BM, BN, BK, warps
    (3, 50, 45, 40, 4, 64, 64, 64, 4),
    (5, 17, 70, 33, 2, 16, 32, 64, 2),
    (7, 100, 9, 100, 2, 32, 16, 128, 8),
    (2, 33, 33, 17, 1, 64, 64, 32, 1),
    (9, 1, 1, 1, 8, 16, 16, 32, 4),
])
@pytest.mark.parametrize("layout", ["plain", "acc", "trans_a", "trans_b"])
def test_dot3d_ragged(case, name, layout):
    B, M, N, K, BB, BM, BN, BK, warps = case
    skip_if_too_big(BB, BM, BN, BK, name)
    run(B, M, N, K, BB, BM, BN, BK, warps, name, has_acc=layout == "acc",
        trans_a=layout == "trans_a", trans_b=layout == "trans_b")


@pytest.mark.parametrize("name", ["fp16", "fp16_fp16", "bf16", "tf32",
                                  "fp64", "int8"])
@pytest.mark.parametrize("case", [(2, 64, 64, 200, 2, 32, 64, 32, 4),
                                  (5, 40, 24, 100, 4, 16, 32, 64, 8)])
def test_dot3d_loop_accumulator(case, name):
    B, M, N, K, BB, BM, BN, BK, warps = case
    dt, out_dt, out_tl, _, atol, rtol = TYPES[name]
    if dt == torch.int8:
        out_tl = tl.int32
    if dt == torch.float64:  # the accumulator keeps the dot's type
        out_tl = tl.float64
    gen = torch.Generator(device="cuda").manual_seed(B + M + N + K)
    a = operand((B, M, K), dt, gen)
    b = operand((B, K, N), dt, gen)
    out = poison_(torch.empty((B, M, N), device="cuda", dtype=out_dt))
    grid = (cdiv(M, BM), cdiv(N, BN), cdiv(B, BB))
    dot3d_loop_kernel[grid](a, b, out, B, M, N, K, BB=BB, BM=BM, BN=BN,
                            BK=BK, OUT=out_tl, num_warps=warps)
    want = a.double() @ b.double()  # exact for int8 too (see run)
    torch.testing.assert_close(out, want.to(out_dt), atol=2 * atol,
                               rtol=2 * rtol, equal_nan=False)


@pytest.mark.parametrize("rank", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("trans_a", [False, True])
@pytest.mark.parametrize("trans_b", [False, True])
def test_dot_multidim(rank, trans_a, trans_b):
    shape = (2,) * (rank - 2) + (32, 32)
    gen = torch.Generator(device="cuda").manual_seed(rank * 4 + trans_a * 2
                                                     + trans_b)
    a = torch.randint(-4, 5, shape, device="cuda", generator=gen).to(
        torch.bfloat16)
    b = torch.randint(-4, 5, shape, device="cuda", generator=gen).to(
        torch.bfloat16)
    c = poison_(torch.empty(shape, dtype=torch.float32, device="cuda"))
    dot_multidim_kernel[(1,)](a, b, c, RANK=rank, TRANS_A=trans_a,
                              TRANS_B=trans_b)
    x = a.double().transpose(-1, -2) if trans_a else a.double()
    y = b.double().transpose(-1, -2) if trans_b else b.double()
    # Small integers: every product and sum is exact in fp32.
    torch.testing.assert_close(c, (x @ y).float(), atol=0, rtol=0)

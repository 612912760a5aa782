"""wgmma with A from registers: a register tensor A (loaded in any layout,
converted to wgmma's A fragment) times a shared-memory B, and the
FlashAttention chain S = Q K^T -> P = exp(S) in 16 bits -> O = P V with P
never leaving registers. float64 references, aligned and ragged sizes, one
and two warpgroups, fp16 and bf16; the same on e4m3 (wgmma's 8-bit
register-A form, k32, B K-major)."""

import pytest
import torch

from conftest import real_compiler
from harness import check, poison_, random_tensor
import txl
from txl_kernels_register_a import (chained_dot, chained_dot_acc_to_dot_a,
                                    chained_dot_fp8, reg_a_dot, reg_a_dot_fp8)

pytestmark = real_compiler


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16],
                         ids=["fp16", "bf16"])
@pytest.mark.parametrize("size", [(128, 128, 64), (200, 136, 100),
                                  (64, 256, 256), (300, 72, 48)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block,warps", [((64, 64, 64), 4),
                                         ((128, 128, 32), 4),
                                         ((64, 256, 16), 4),
                                         ((128, 64, 64), 8)],
                         ids=lambda v: "x".join(map(str, v))
                         if isinstance(v, tuple) else f"w{v}")
def test_register_a_dot(dtype, size, block, warps):
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    M, N, K = size
    bm, bn, bk = block
    gen = torch.Generator(device="cuda").manual_seed(M + 5 * N + 11 * K)
    a = random_tensor((M, K), dtype, generator=gen)
    b = random_tensor((K, N), dtype, generator=gen)
    c = torch.empty((M, N), dtype=dtype, device="cuda")

    def launch(c_, a_, b_):
        grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
        reg_a_dot[grid](a_, b_, c_, M, N, K, BM=bm, BN=bn, BK=bk,
                        num_warps=warps)

    tol = 2e-2 if dtype == torch.bfloat16 else 1e-2
    check(launch, lambda a_, b_: a_ @ b_, inputs=[a, b], outputs=[c],
          atol=tol, rtol=tol)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16],
                         ids=["fp16", "bf16"])
@pytest.mark.parametrize("shape", [(64, 64, 64), (64, 128, 64), (64, 64, 128),
                                   (128, 64, 64)],
                         ids=lambda s: "x".join(map(str, s)))
def test_chained_dot_p_in_registers(dtype, shape):
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    bm, bn, d = shape
    gen = torch.Generator(device="cuda").manual_seed(bm + 3 * bn + d)
    q = random_tensor((bm, d), dtype, generator=gen)
    k = random_tensor((bn, d), dtype, generator=gen)
    v = random_tensor((bn, d), dtype, generator=gen)
    o = torch.empty((bm, d), dtype=torch.float32, device="cuda")
    scale = 0.03  # keeps P near 1, where a 16-bit rounding step is small

    def launch(o_, q_, k_, v_):
        chained_dot[(1,)](q_, k_, v_, o_, scale, BM=bm, BN=bn, D=d,
                          num_warps=4 * (bm // 64))

    def reference(q_, k_, v_):
        # P is rounded to the operand type before the second product, as
        # the kernel does; the rest is exact.
        p = torch.exp((q_ @ k_.T) * scale).to(dtype).double()
        return p @ v_

    check(launch, reference, inputs=[q, k, v], outputs=[o],
          atol=2e-2, rtol=2e-2)


FP8 = torch.float8_e4m3fn
# wgmma's fp8 products are exact in fp32, but its fp8 accumulation keeps
# fewer mantissa bits than fp32 (sums of up to 256 products of ~1 here): a
# wrong fragment layout is off by O(1), far outside this.
FP8_TOL = dict(atol=5e-2, rtol=1e-2)


def check_chain_rounded_p(launch, q, k, vt, scale):
    """P = exp(Q K^T * scale) rounded to q's type, then O = P V, checked in
    two halves. P against float64: within one step of the type, and equal
    but for a few elements (S from the fp8 wgmma's shorter accumulation
    can sit on the other side of a rounding boundary, and one e4m3 step of
    P moves a row of O by up to 0.25 |V|, more than any sensible tolerance
    of O). O against the kernel's own P times V in float64, so the second
    product and P's register layout are checked tightly."""
    dtype = q.dtype
    o = poison_(torch.empty((q.shape[0], vt.shape[0]), dtype=torch.float32,
                            device="cuda"))
    p = poison_(torch.empty((q.shape[0], k.shape[0]), dtype=dtype,
                            device="cuda"))
    launch(o, p)
    torch.cuda.synchronize()
    want_p = torch.exp((q.double() @ k.double().T) * scale).to(dtype).double()
    got_p = p.double()
    step = torch.finfo(dtype).eps * 2.0 ** torch.floor(
        torch.log2(want_p.abs().clamp_min(torch.finfo(dtype).tiny)))
    assert ((got_p - want_p).abs() <= step).all(), "P off by more than a step"
    assert (got_p != want_p).double().mean().item() < 0.02, "P mostly off"
    torch.testing.assert_close(o, (got_p @ vt.double().T).float(), **FP8_TOL)
    return o


@pytest.mark.parametrize("size", [(128, 128, 64), (200, 136, 96),
                                  (64, 256, 256)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block,warps", [((64, 64, 64), 4),
                                         ((128, 128, 32), 4),
                                         ((128, 64, 64), 8)],
                         ids=lambda v: "x".join(map(str, v))
                         if isinstance(v, tuple) else f"w{v}")
def test_register_a_dot_fp8(size, block, warps):
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    M, N, K = size
    bm, bn, bk = block
    gen = torch.Generator(device="cuda").manual_seed(M + 7 * N + 13 * K)
    a = random_tensor((M, K), FP8, generator=gen)
    bt = random_tensor((N, K), FP8, generator=gen)
    c = torch.empty((M, N), dtype=torch.float32, device="cuda")

    def launch(c_, a_, bt_):
        grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
        reg_a_dot_fp8[grid](a_, bt_, c_, M, N, K, BM=bm, BN=bn, BK=bk,
                            num_warps=warps)

    check(launch, lambda a_, bt_: a_ @ bt_.T, inputs=[a, bt], outputs=[c],
          **FP8_TOL)


@pytest.mark.parametrize("shape", [(64, 64, 64), (64, 128, 64),
                                   (64, 64, 128), (128, 64, 64)],
                         ids=lambda s: "x".join(map(str, s)))
def test_chained_dot_fp8_p_in_registers(shape):
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    bm, bn, d = shape
    gen = torch.Generator(device="cuda").manual_seed(bm + 5 * bn + d)
    q = random_tensor((bm, d), FP8, generator=gen)
    k = random_tensor((bn, d), FP8, generator=gen)
    vt = random_tensor((d, bn), FP8, generator=gen)
    scale = 0.02

    def launch(o_, p_):
        chained_dot_fp8[(1,)](q, k, vt, o_, p_, scale, BM=bm, BN=bn, D=d,
                              num_warps=4 * (bm // 64))

    check_chain_rounded_p(launch, q, k, vt, scale)


@pytest.mark.parametrize("dtype", [FP8, torch.float16],
                         ids=["fp8", "fp16"])
@pytest.mark.parametrize("shape", [(64, 64, 64), (64, 128, 128),
                                   (128, 64, 64)],
                         ids=lambda s: "x".join(map(str, s)))
def test_acc_to_dot_a(dtype, shape):
    """txl.acc_to_dot_a: P taken as A in its accumulator registers, V's
    keys permuted on the host with txl.acc_to_dot_a_columns; the result is
    P V as if nothing were permuted (which also checks that the compiler's
    order, derived from the layouts, is the host's)."""
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    bm, bn, d = shape
    bits = 8 if dtype == FP8 else 16
    gen = torch.Generator(device="cuda").manual_seed(bm + 9 * bn + d)
    q = random_tensor((bm, d), dtype, generator=gen)
    k = random_tensor((bn, d), dtype, generator=gen)
    vt = random_tensor((d, bn), dtype, generator=gen)
    order = torch.tensor(txl.acc_to_dot_a_columns(bits), device="cuda")
    group = order.numel()
    cols = torch.arange(bn, device="cuda")
    cols = cols - cols % group + order[cols % group]
    # Through uint8 views: indexing is not implemented for float8 types.
    vt_perm = vt.view(torch.uint8)[:, cols].view(dtype).contiguous() \
        if bits == 8 else vt[:, cols].contiguous()
    scale = 0.02

    def launch(o_, p_):
        chained_dot_acc_to_dot_a[(1,)](q, k, vt_perm, o_, p_, scale, BM=bm,
                                       BN=bn, D=d, num_warps=4 * (bm // 64))

    o = check_chain_rounded_p(launch, q, k, vt, scale)
    if bits == 8:
        # The order matters: V in key order gives another (wrong) product.
        wrong = torch.empty_like(o)
        p = torch.empty((bm, bn), dtype=dtype, device="cuda")
        chained_dot_acc_to_dot_a[(1,)](q, k, vt, wrong, p, scale, BM=bm,
                                       BN=bn, D=d, num_warps=4 * (bm // 64))
        torch.cuda.synchronize()
        assert (wrong - o).abs().max().item() > 0.5

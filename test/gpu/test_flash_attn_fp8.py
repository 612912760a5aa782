"""txl.ops.flash_attn_func and flash_attn_varlen_func on float8_e4m3fn q,
k, v (python/txl/ops/flash_attn.py's flash_fwd with FP8) against a float32
reference of the dequantized inputs: seqlens 1 .. 4133, seqlen_q !=
seqlen_k, GQA 8:1, head dims 64 and 128, causal (bottom-right aligned) and
not, sliding windows, softcap, packed variable-length batches (ragged,
with empty and one-token sequences), descales other than 1. Output (bf16)
and LSE are poisoned before launch, the output inside a larger NaN-filled
buffer.

P reaches the P V wgmma from registers, with V's keys permuted to match
(txl.acc_to_dot_a; TXL_FP8_P_SMEM=1 selects the older path through shared
memory, tested too).

Tolerance (as test/gpu/test_attention_ladder.py argues): P is rounded to
e4m3 before P V, ~3% of the averaged values at worst, plus bf16 output
rounding: atol 0.06, rtol 0.02, mean absolute error < 0.008; the LSE does
not see P's rounding (atol 2e-3)."""

import math

import pytest
import torch

from conftest import real_compiler

pytestmark = real_compiler

import txl  # noqa: E402
import txl.ops  # noqa: E402
from test_flash_attn import reference  # noqa: E402  (fp32, window, softcap)

FP8 = torch.float8_e4m3fn
# Exact in fp32, so a descale given as a float and as a one-element fp32
# tensor is the same number (0.7 is not: the two paths then differ in the
# last bit of qk_scale, and the outputs in the last bit of a few values).
DESCALES = (0.75, 1.25, 0.875)


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("fp8 wgmma needs sm_90a")


def fp8_inputs(B, Sq, Sk, H, Hkv, D, seed=0):
    gen = torch.Generator(device="cuda").manual_seed(seed + Sq * 7 + Sk + D)
    q = torch.randn((B, Sq, H, D), device="cuda", generator=gen).to(FP8)
    k = torch.randn((B, Sk, Hkv, D), device="cuda", generator=gen).to(FP8)
    v = torch.randn((B, Sk, Hkv, D), device="cuda", generator=gen).to(FP8)
    return q, k, v


def check(out, lse, q, k, v, scale, causal, descales, window=(-1, -1),
          softcap=0.0):
    dq, dk, dv = descales
    want, want_lse = reference(q.float() * dq, k.float() * dk,
                               v.float() * dv, scale, causal, window,
                               softcap)
    # P is rounded to e4m3 before P.V: single elements reach 0.068 on the
    # H100 (1 in 153600); the mean error below is the tight check.
    torch.testing.assert_close(out.float(), want, atol=8e-2, rtol=2e-2)
    err = (out.float() - want).abs().mean().item()
    assert err < 8e-3, f"mean error {err}"
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)


def run(B, Sq, Sk, H, Hkv, D, causal, descales=DESCALES, window=(-1, -1),
        softcap=0.0, persistent=None, max_ctas=None, tuning=None):
    q, k, v = fp8_inputs(B, Sq, Sk, H, Hkv, D)
    scale = 1.0 / math.sqrt(D)
    n = B * Sq * H * D
    big = torch.full((n + 4096,), float("nan"), device="cuda",
                     dtype=torch.bfloat16)
    out = big[:n].view(B, Sq, H, D)
    lse = torch.full((B, H, Sq), float("nan"), device="cuda")
    txl.ops.flash_attn_fp8_forward_into(q, k, v, out, lse, scale, causal,
                                        *descales, window_size=window,
                                        softcap=softcap,
                                        persistent=persistent,
                                        max_ctas=max_ctas, tuning=tuning)
    torch.cuda.synchronize()
    check(out, lse, q, k, v, scale, causal, descales, window, softcap)
    assert torch.isnan(big[n:]).all(), "a store past the output"


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", [1, 17, 128, 1000, 4133])
def test_fp8_square(S, D, causal):
    run(2, S, S, 3, 3, D, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", [17, 1000])
def test_fp8_p_through_shared_memory(S, D, causal, monkeypatch):
    """TXL_FP8_P_SMEM=1: the older P V path (P stored to shared memory, V^T
    in key order), kept for A/B timing, stays correct."""
    monkeypatch.setenv("TXL_FP8_P_SMEM", "1")
    run(2, S, S, 3, 3, D, causal)


def test_fp8_v_keys_permuted():
    """transpose_v_fp8 writes each group of 32 keys in
    txl.acc_to_dot_a_columns(8)'s order (the order the kernel's P reaches
    the P V wgmma in), sequences from multiples of 32, zeros between."""
    lens = [0, 1, 40, 33, 100]
    cu = torch.tensor([0] + lens, device="cuda").cumsum(0)
    v = torch.randn((int(cu[-1]), 2, 64), device="cuda").to(FP8)
    vt = txl.ops.transpose_v_fp8(v, cu).view(torch.uint8)
    plain = txl.ops.transpose_v_fp8(v, cu, permute_keys=False)
    order = txl.acc_to_dot_a_columns(8)
    bits = v.view(torch.uint8).reshape(v.shape[0], -1)
    for b, n in enumerate(lens):
        start = ((int(cu[b]) + 31) // 32 + b) * 32
        for key in range(n):
            col = start + key - key % 32 + order.index(key % 32)
            assert torch.equal(vt[:, col], bits[int(cu[b]) + key])
            assert torch.equal(plain.view(torch.uint8)[:, start + key],
                               bits[int(cu[b]) + key])
    assert int((vt != 0).sum()) == int((bits != 0).sum())


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("Sq,Sk", [(17, 1000), (1000, 17), (300, 301),
                                   (1, 4133)])
def test_fp8_seqlen_q_ne_k(Sq, Sk, causal):
    run(2, Sq, Sk, 2, 2, 128, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
def test_fp8_gqa(D, causal):
    run(2, 1000, 777, 8, 1, D, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("window", [(100, 50), (0, 0), (300, -1), (-1, 64)],
                         ids=["l100r50", "l0r0", "l300", "r64"])
def test_fp8_window(window, D, causal):
    """Sliding windows (bottom-right aligned; causal sets right = 0): the
    CTA walks only the key blocks its rows' windows touch."""
    run(2, 1000, 1000, 2, 1, D, causal, window=window)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("Sq,Sk", [(17, 1000), (1000, 17), (1, 4133)])
def test_fp8_window_q_ne_k(Sq, Sk, causal):
    run(2, Sq, Sk, 4, 2, 128, causal, window=(200, 30))


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", [17, 1000])
def test_fp8_softcap(S, D, causal):
    """softcap: the descales and the scale go into tanh's argument
    (softcap * tanh(s * dq * dk * scale / softcap))."""
    run(2, S, S, 4, 1, D, causal, softcap=20.0)
    run(1, S, S, 2, 2, D, causal, softcap=5.0, window=(64, 64))


VARLEN_LENS = [(1, 17), (17, 1), (0, 40), (300, 0), (1000, 1000),
               (1, 1), (777, 129)]


def varlen_inputs(lens, H, Hkv, D, seed=1):
    cu_q = torch.tensor([0] + [a for a, _ in lens],
                        device="cuda").cumsum(0).int()
    cu_k = torch.tensor([0] + [b for _, b in lens],
                        device="cuda").cumsum(0).int()
    Tq, Tk = int(cu_q[-1]), int(cu_k[-1])
    gen = torch.Generator(device="cuda").manual_seed(seed + D + H)
    q = torch.randn((Tq, H, D), device="cuda", generator=gen).to(FP8)
    k = torch.randn((Tk, Hkv, D), device="cuda", generator=gen).to(FP8)
    v = torch.randn((Tk, Hkv, D), device="cuda", generator=gen).to(FP8)
    return q, k, v, cu_q, cu_k


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D,H,Hkv", [(128, 4, 2), (64, 8, 1)],
                         ids=["d128-gqa2", "d64-gqa8"])
@pytest.mark.parametrize("window,softcap", [((-1, -1), 0.0),
                                            ((100, 20), 0.0),
                                            ((-1, -1), 15.0)],
                         ids=["plain", "window", "softcap"])
def test_fp8_varlen(window, softcap, D, H, Hkv, causal):
    """flash_attn_varlen_func on fp8: ragged packed sequences (empty, one
    token, seqlen_q != seqlen_k, longer than a block) against the
    reference per sequence, output and LSE poisoned; the API (custom op)
    gives the same bits."""
    q, k, v, cu_q, cu_k = varlen_inputs(VARLEN_LENS, H, Hkv, D)
    Tq = q.shape[0]
    scale = 1.0 / math.sqrt(D)
    big = torch.full((q.numel() + 4096,), float("nan"), device="cuda",
                     dtype=torch.bfloat16)
    out = big[:q.numel()].view(q.shape)
    lse = torch.full((H, Tq), float("nan"), device="cuda")
    max_q = max(a for a, _ in VARLEN_LENS)
    txl.ops.flash_attn_varlen_forward_into(
        q, k, v, cu_q, cu_k, max_q, out, lse, scale, causal, window, softcap,
        *DESCALES)
    torch.cuda.synchronize()
    assert torch.isnan(big[q.numel():]).all(), "a store past the output"
    for b, (lq, lk) in enumerate(VARLEN_LENS):
        qs, ks = int(cu_q[b]), int(cu_k[b])
        if lq == 0:
            continue
        if lk == 0:
            assert (out[qs:qs + lq] == 0).all()
            assert torch.isinf(lse[:, qs:qs + lq]).all()
            continue
        check(out[None, qs:qs + lq], lse[None, :, qs:qs + lq],
              q[None, qs:qs + lq], k[None, ks:ks + lk], v[None, ks:ks + lk],
              scale, causal, DESCALES, window, softcap)
    got, got_lse = txl.ops.flash_attn_varlen_func(
        q, k, v, cu_q, cu_k, max_q, max(b for _, b in VARLEN_LENS),
        causal=causal, window_size=window, softcap=softcap, return_lse=True,
        descale_q=DESCALES[0], descale_k=DESCALES[1], descale_v=DESCALES[2])
    assert got.dtype == torch.bfloat16
    torch.testing.assert_close(got, out, atol=0, rtol=0)
    torch.testing.assert_close(got_lse, lse, atol=0, rtol=0)


def test_fp8_api():
    """flash_attn_func's fp8 path: descales as floats and as one-element
    tensors, return_lse, torch.compile, and the refusals."""
    q, k, v = fp8_inputs(2, 333, 333, 4, 2, 128, seed=5)
    dq, dk, dv = DESCALES
    out, lse = txl.ops.flash_attn_func(q, k, v, causal=True, descale_q=dq,
                                       descale_k=dk, descale_v=dv,
                                       return_lse=True)
    assert out.dtype == torch.bfloat16
    check(out, lse, q, k, v, 128 ** -0.5, True, DESCALES)
    # float64 tensors hold exactly the Python floats above (a float32 one
    # would round 0.7 and change qk_scale in its last bit). The same kernel
    # variant (with LSE) as `out`, so the results are bitwise equal: only
    # how the descales arrive differs.
    t = [torch.tensor([x], device="cuda", dtype=torch.float64)
         for x in DESCALES]
    out2, _ = txl.ops.flash_attn_func(q, k, v, causal=True, descale_q=t[0],
                                      descale_k=t[1], descale_v=t[2],
                                      return_lse=True)
    torch.testing.assert_close(out2, out, atol=0, rtol=0)
    compiled = torch.compile(
        lambda a, b, c: txl.ops.flash_attn_func(
            a, b, c, causal=True, descale_q=dq, descale_k=dk,
            descale_v=dv) * 2.0, fullgraph=True)
    torch.testing.assert_close(compiled(q, k, v), out * 2.0)
    # Windows and softcap through the API match the direct launch.
    out3, lse3 = txl.ops.flash_attn_func(
        q, k, v, window_size=(16, 0), softcap=10.0, descale_q=dq,
        descale_k=dk, descale_v=dv, return_lse=True)
    check(out3, lse3, q, k, v, 128 ** -0.5, False, DESCALES, (16, 0), 10.0)
    q256 = torch.zeros((1, 16, 2, 256), device="cuda").to(FP8)
    with pytest.raises(NotImplementedError, match="head_dim 256"):
        txl.ops.flash_attn_func(q256, q256, q256)
    with pytest.raises(NotImplementedError, match="head_dim 256"):
        cu = torch.tensor([0, 16], device="cuda", dtype=torch.int32)
        txl.ops.flash_attn_varlen_func(q256[0], q256[0], q256[0], cu, cu,
                                       16, 16)
    with pytest.raises(NotImplementedError):
        txl.ops.flash_attn_func(q, k, v,
                                descale_q=torch.ones(2, 2, device="cuda"))
    with pytest.raises(ValueError):
        txl.ops.flash_attn_func(q.half(), k.half(), v.half(), descale_q=2.0)


@pytest.mark.parametrize("persistent,ctas", [("static", 1), ("static", 5),
                                             ("dynamic", 5), (False, None)],
                         ids=["static1", "static5", "dynamic5", "grid"])
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D,Sq,Sk", [(128, 1000, 1000), (64, 1001, 300),
                                     (128, 300, 1001)])
def test_fp8_persistent(D, Sq, Sk, causal, persistent, ctas):
    """The persistent launch on a few CTAs (several tiles each: the ring
    and P buffers carry across tiles) and the one-CTA-per-tile grid."""
    run(2, Sq, Sk, 4, 2, D, causal, persistent=persistent, max_ctas=ctas)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("Sq,Sk", [(1, 17), (1000, 1000), (4133, 4133),
                                   (300, 1001)])
def test_fp8_block_n_256(Sq, Sk, causal):
    """256-key blocks at head dim 128 (tuning; grid launch, two stages, no
    intra-warpgroup overlap: the tiling ptxas fits without spills). V^T's
    [128, 256] block goes as two TMA boxes, and P's columns are permuted in
    groups of 32 as at 128 keys. Written in session 15 with no GPU left:
    first run on the H100 pending."""
    run(2, Sq, Sk, 4, 2, 128, causal, persistent=False,
        tuning={"block_n": 256, "stages": 2, "overlap": False})

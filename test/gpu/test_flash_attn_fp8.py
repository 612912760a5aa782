"""txl.ops.flash_attn_func on float8_e4m3fn q, k, v (the fp8 forward,
python/txl/ops/flash_attn_fp8.py) against a float32 reference of the
dequantized inputs: seqlens 1 .. 4133, seqlen_q != seqlen_k, GQA 8:1,
head dims 64 and 128, causal (bottom-right aligned) and not, descales
other than 1. Output (bf16) and LSE are poisoned before launch, the output
inside a larger NaN-filled buffer.

Tolerance (as test/gpu/test_attention_ladder.py argues): P is rounded to
e4m3 before P V, ~3% of the averaged values at worst, plus bf16 output
rounding: atol 0.06, rtol 0.02, mean absolute error < 0.008; the LSE does
not see P's rounding (atol 2e-3)."""

import math

import pytest
import torch

from conftest import real_compiler

pytestmark = real_compiler

import txl.ops  # noqa: E402

FP8 = torch.float8_e4m3fn
DESCALES = (0.7, 1.3, 0.9)


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("fp8 wgmma needs sm_90a")


def reference(q, k, v, scale, causal):
    """O and LSE in float32 of already dequantized inputs (GQA by
    repeating kv heads); rows that see no key: O = 0, LSE = -inf."""
    B, Sq, H, D = q.shape
    Sk, Hkv = k.shape[1], k.shape[2]
    qf = q.transpose(1, 2)
    kf = k.repeat_interleave(H // Hkv, dim=2).transpose(1, 2)
    vf = v.repeat_interleave(H // Hkv, dim=2).transpose(1, 2)
    s = qf @ kf.transpose(-1, -2) * scale
    if causal:
        i = torch.arange(Sq, device=q.device)[:, None]
        j = torch.arange(Sk, device=q.device)[None, :]
        s = s.masked_fill(j > i + (Sk - Sq), float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse[..., None]).nan_to_num(0.0)
    return (p @ vf).transpose(1, 2), lse


def fp8_inputs(B, Sq, Sk, H, Hkv, D, seed=0):
    gen = torch.Generator(device="cuda").manual_seed(seed + Sq * 7 + Sk + D)
    q = torch.randn((B, Sq, H, D), device="cuda", generator=gen).to(FP8)
    k = torch.randn((B, Sk, Hkv, D), device="cuda", generator=gen).to(FP8)
    v = torch.randn((B, Sk, Hkv, D), device="cuda", generator=gen).to(FP8)
    return q, k, v


def check(out, lse, q, k, v, scale, causal, descales):
    dq, dk, dv = descales
    want, want_lse = reference(q.float() * dq, k.float() * dk,
                               v.float() * dv, scale, causal)
    # P is rounded to e4m3 before P.V: single elements reach 0.068 on the
    # H100 (1 in 153600); the mean error below is the tight check.
    torch.testing.assert_close(out.float(), want, atol=8e-2, rtol=2e-2)
    err = (out.float() - want).abs().mean().item()
    assert err < 8e-3, f"mean error {err}"
    torch.testing.assert_close(lse, want_lse, atol=2e-3, rtol=1e-3)


def run(B, Sq, Sk, H, Hkv, D, causal, descales=DESCALES):
    q, k, v = fp8_inputs(B, Sq, Sk, H, Hkv, D)
    scale = 1.0 / math.sqrt(D)
    n = B * Sq * H * D
    big = torch.full((n + 4096,), float("nan"), device="cuda",
                     dtype=torch.bfloat16)
    out = big[:n].view(B, Sq, H, D)
    lse = torch.full((B, H, Sq), float("nan"), device="cuda")
    txl.ops.flash_attn_fp8_forward_into(q, k, v, out, lse, scale, causal,
                                        *descales)
    torch.cuda.synchronize()
    check(out, lse, q, k, v, scale, causal, descales)
    assert torch.isnan(big[n:]).all(), "a store past the output"


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", [1, 17, 128, 1000, 4133])
def test_fp8_square(S, D, causal):
    run(2, S, S, 3, 3, D, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("Sq,Sk", [(17, 1000), (1000, 17), (300, 301),
                                   (1, 4133)])
def test_fp8_seqlen_q_ne_k(Sq, Sk, causal):
    run(2, Sq, Sk, 2, 2, 128, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
def test_fp8_gqa(D, causal):
    run(2, 1000, 777, 8, 1, D, causal)


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
    with pytest.raises(NotImplementedError):
        txl.ops.flash_attn_func(q, k, v, window_size=(16, 0))
    with pytest.raises(NotImplementedError):
        txl.ops.flash_attn_func(q, k, v, softcap=10.0)
    with pytest.raises(NotImplementedError):
        txl.ops.flash_attn_func(q, k, v,
                                descale_q=torch.ones(2, 2, device="cuda"))
    with pytest.raises(ValueError):
        txl.ops.flash_attn_func(q.half(), k.half(), v.half(), descale_q=2.0)

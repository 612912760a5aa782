"""The backward of txl.ops.flash_attn_func (python/txl/ops/flash_attn_bwd.py)
on the GPU: dq, dk, dv against torch.autograd on the fp32 math formula.

As flash-attn's own tests do, each gradient's error is bounded relative to
the error that the same formula computed in the input dtype (fp16/bf16,
PyTorch autograd) makes against fp32: |txl - fp32| <= 2 * |low - fp32| +
a small floor. Covered: seqlens 1 .. 4133 (ragged tails), seqlen_q !=
seqlen_k, GQA 8:1 and MQA (dk/dv summed over the group), head dims 64 and
128, fp16 and bf16, causal (bottom-right aligned) and not, sliding windows
and softcap, a loss that also uses the LSE, and the custom op under
torch.compile. The gradient buffers
handed to flash_attn_backward_into are NaN-filled first (and sit inside
larger NaN-filled buffers), so a missed or stray store shows."""

import math

import pytest
import torch

from conftest import real_compiler

pytestmark = real_compiler

import txl.ops  # noqa: E402


def attention(q, k, v, scale, causal, window=(-1, -1), softcap=0.0):
    """O and LSE by the formula, in q's dtype (GQA by repeating kv heads);
    rows that see no key give O = 0. window = (left, right), bottom-right
    aligned (-1: unbounded; causal means right = 0); softcap > 0 maps each
    scaled score s to softcap * tanh(s / softcap)."""
    B, Sq, H, D = q.shape
    Sk, Hkv = k.shape[1], k.shape[2]
    qt = q.transpose(1, 2)
    kt = k.repeat_interleave(H // Hkv, dim=2).transpose(1, 2)
    vt = v.repeat_interleave(H // Hkv, dim=2).transpose(1, 2)
    s = (qt @ kt.transpose(-1, -2)).float() * scale
    if softcap:
        s = softcap * torch.tanh(s / softcap)
    left, right = window
    if causal:
        right = 0
    i = torch.arange(Sq, device=q.device)[:, None]
    j = torch.arange(Sk, device=q.device)[None, :]
    seen = torch.ones((Sq, Sk), device=q.device, dtype=torch.bool)
    if right >= 0:
        seen &= j <= i + (Sk - Sq) + right
    if left >= 0:
        seen &= j >= i + (Sk - Sq) - left
    s = s.masked_fill(~seen, float("-inf"))
    # Rows that see no key: kept finite (so no NaN reaches autograd), then
    # zeroed.
    dead = ~seen.any(dim=1, keepdim=True)
    s = s.masked_fill(dead, 0.0)
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse[..., None]).masked_fill(dead, 0.0).to(q.dtype)
    lse = lse.masked_fill(dead[:, 0], float("-inf"))
    return (p @ vt).transpose(1, 2), lse


def ref_grads(q, k, v, do, scale, causal, dtype, dlse=None, window=(-1, -1),
              softcap=0.0):
    q, k, v = (t.detach().to(dtype).requires_grad_() for t in (q, k, v))
    o, lse = attention(q, k, v, scale, causal, window, softcap)
    loss = (o.float() * do.float()).sum()
    if dlse is not None:
        loss = loss + (lse.nan_to_num(0.0, neginf=0.0) * dlse).sum()
    return torch.autograd.grad(loss, (q, k, v))


def make(B, Sq, Sk, H, Hkv, D, dtype, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed + Sq * 7 + Sk)
    q = torch.randn((B, Sq, H, D), device="cuda", generator=gen).to(dtype)
    k = torch.randn((B, Sk, Hkv, D), device="cuda", generator=gen).to(dtype)
    v = torch.randn((B, Sk, Hkv, D), device="cuda", generator=gen).to(dtype)
    do = torch.randn((B, Sq, H, D), device="cuda", generator=gen).to(dtype)
    return q, k, v, do


def poisoned(shape, dtype):
    """A NaN-filled view inside a larger NaN-filled buffer."""
    n = math.prod(shape)
    big = torch.full((n + 4096,), float("nan"), device="cuda", dtype=dtype)
    return big, big[:n].view(shape)


def check(got, want32, want_low, name):
    err = (got.float() - want32).abs().max().item()
    base = (want_low.float() - want32).abs().max().item()
    scale = want32.abs().max().item()
    bound = 2 * base + 1e-3 * max(scale, 1.0)
    assert not torch.isnan(got).any(), f"{name}: NaN"
    assert err <= bound, (f"{name}: max error {err:.3g} > {bound:.3g} "
                          f"(the low-precision reference's {base:.3g})")


def run(B, Sq, Sk, H, Hkv, D, dtype, causal, seed=0, window=(-1, -1),
        softcap=0.0):
    q, k, v, do = make(B, Sq, Sk, H, Hkv, D, dtype, seed)
    scale = 1.0 / math.sqrt(D)
    out = torch.empty_like(q)
    lse = torch.empty((B, H, Sq), device="cuda")
    txl.ops.flash_attn_forward_into(q, k, v, out, lse, scale, causal,
                                    window_size=window, softcap=softcap)
    bufs = [poisoned(t.shape, dtype) for t in (q, k, v)]
    dq, dk, dv = (view for _, view in bufs)
    txl.ops.flash_attn_backward_into(q, k, v, out, lse, do, dq, dk, dv,
                                     scale, causal, window_size=window,
                                     softcap=softcap)
    torch.cuda.synchronize()
    for big, view in bufs:
        assert torch.isnan(big[view.numel():]).all(), "a store past a grad"
    want32 = ref_grads(q, k, v, do, scale, causal, torch.float32,
                       window=window, softcap=softcap)
    want_low = ref_grads(q, k, v, do, scale, causal, dtype, window=window,
                         softcap=softcap)
    for got, w32, wlo, name in zip((dq, dk, dv), want32, want_low,
                                   ("dq", "dk", "dv")):
        check(got, w32, wlo, name)


@pytest.fixture(autouse=True)
def hopper():
    if torch.cuda.get_device_capability() < (9, 0):
        pytest.skip("the attention kernels need sm_90a")


SEQLENS = [1, 17, 128, 1000, 4133]


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16],
                         ids=["fp16", "bf16"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", SEQLENS)
def test_square(S, D, dtype, causal):
    run(2, S, S, 3, 3, D, dtype, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("Sq,Sk", [(17, 1000), (1000, 17), (128, 4133),
                                   (4133, 128), (1, 999), (300, 301)])
def test_seqlen_q_ne_k(Sq, Sk, causal):
    run(2, Sq, Sk, 2, 2, 128, torch.float16, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("H,Hkv", [(8, 1), (16, 2), (4, 4)],
                         ids=["gqa8", "gqa8x2", "mha"])
@pytest.mark.parametrize("D", [64, 128])
def test_gqa(H, Hkv, D, causal):
    run(2, 1000, 777, H, Hkv, D, torch.bfloat16, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("window", [(64, 0), (100, 50), (-1, 30), (200, -1),
                                    (130, 300)], ids=str)
@pytest.mark.parametrize("Sq,Sk", [(1000, 1000), (17, 700), (700, 300)])
def test_window(Sq, Sk, window, causal):
    """Sliding windows: the key blocks' query ranges shrink to the window,
    its edges are masked on both sides."""
    run(2, Sq, Sk, 2, 1, 128, torch.float16, causal, window=window)


@pytest.mark.parametrize("window", [(-1, -1), (300, -1)], ids=str)
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("softcap", [5.0, 30.0])
@pytest.mark.parametrize("D,dtype", [(64, torch.bfloat16),
                                     (128, torch.float16)],
                         ids=["d64-bf16", "d128-fp16"])
def test_softcap(D, dtype, softcap, causal, window):
    """softcap: dS picks up the derivative of tanh."""
    run(2, 777, 1000, 2, 2, D, dtype, causal, window=window,
        softcap=softcap)


def test_autograd():
    """flash_attn_func(...).backward(): gradients of a loss on O and the
    LSE, and the same under torch.compile (one opaque op each way)."""
    dtype = torch.float16
    q, k, v, do = make(2, 300, 200, 4, 2, 64, dtype, 5)
    gen = torch.Generator(device="cuda").manual_seed(9)
    dlse = torch.randn((2, 4, 300), device="cuda", generator=gen)

    def loss_fn(fn, a, b, c):
        o, lse = fn(a, b, c, causal=True, return_lse=True)
        return (o.float() * do.float()).sum() + \
            (lse.nan_to_num(0.0, neginf=0.0) * dlse).sum()

    qs, ks, vs = (t.clone().requires_grad_() for t in (q, k, v))
    loss_fn(txl.ops.flash_attn_func, qs, ks, vs).backward()
    want32 = ref_grads(q, k, v, do, 0.125, True, torch.float32, dlse)
    want_low = ref_grads(q, k, v, do, 0.125, True, dtype, dlse)
    for got, w32, wlo, name in zip((qs.grad, ks.grad, vs.grad), want32,
                                   want_low, ("dq", "dk", "dv")):
        check(got, w32, wlo, name)

    # Only O used: grad_lse is None and the LSE term drops out.
    qs2 = q.clone().requires_grad_()
    o = txl.ops.flash_attn_func(qs2, k, v, causal=True)
    (o.float() * do.float()).sum().backward()
    want32 = ref_grads(q, k, v, do, 0.125, True, torch.float32)
    want_low = ref_grads(q, k, v, do, 0.125, True, dtype)
    check(qs2.grad, want32[0], want_low[0], "dq (O only)")

    compiled = torch.compile(
        lambda a, b, c: txl.ops.flash_attn_func(a, b, c) * 2.0,
        fullgraph=True)
    qc, kc, vc = (t.clone().requires_grad_() for t in (q, k, v))
    (compiled(qc, kc, vc).float() * do.float()).sum().backward()
    qe, ke, ve = (t.clone().requires_grad_() for t in (q, k, v))
    (txl.ops.flash_attn_func(qe, ke, ve).float() * 2.0 *
     do.float()).sum().backward()
    for a, b in ((qc, qe), (kc, ke), (vc, ve)):
        torch.testing.assert_close(a.grad, b.grad)

"""The backward of txl.ops.flash_attn_func (python/txl/ops/flash_attn_bwd.py)
on the GPU: dq, dk, dv against torch.autograd on the fp32 math formula.

As flash-attn's own tests do, each gradient's error is bounded relative to
the error that the same formula computed in the input dtype (fp16/bf16,
PyTorch autograd) makes against fp32: |txl - fp32| <= 2 * |low - fp32| +
a small floor. Covered: seqlens 1 .. 4133 (ragged tails), seqlen_q !=
seqlen_k, GQA 8:1 and MQA (dk/dv summed over the group), head dims 64 and
128, fp16 and bf16, causal (bottom-right aligned) and not, sliding windows
and softcap, a loss that also uses the LSE, the custom op under
torch.compile, and packed variable-length batches (flash_attn_varlen_func:
ragged sequences of 0, 1, 17, 1000 ... tokens, seqlen_q != seqlen_k per
sequence, checked sequence by sequence); all but the softmax scales
and the autograd/torch.compile paths also through the persistent launch
(one CTA per SM, or a few CTAs that each walk many tiles). The gradient
buffers
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
        softcap=0.0, scale=None, pingpong=None, persistent=None,
        max_ctas=None):
    q, k, v, do = make(B, Sq, Sk, H, Hkv, D, dtype, seed)
    if scale is None:
        scale = 1.0 / math.sqrt(D)
    out = torch.empty_like(q)
    lse = torch.empty((B, H, Sq), device="cuda")
    txl.ops.flash_attn_forward_into(q, k, v, out, lse, scale, causal,
                                    window_size=window, softcap=softcap)
    bufs = [poisoned(t.shape, dtype) for t in (q, k, v)]
    dq, dk, dv = (view for _, view in bufs)
    txl.ops.flash_attn_backward_into(q, k, v, out, lse, do, dq, dk, dv,
                                     scale, causal, window_size=window,
                                     softcap=softcap, pingpong=pingpong,
                                     persistent=persistent,
                                     max_ctas=max_ctas)
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


def other_schedule(D):
    """flash_bwd's PINGPONG setting that is not the default at head dim D
    (the default is what every other test runs)."""
    return not txl.ops._BWD_PINGPONG[D]


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16],
                         ids=["fp16", "bf16"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", [1, 17, 130, 1000, 4133])
def test_other_schedule(S, D, dtype, causal):
    """The PINGPONG setting the host does not pick (the consumers take
    turns at dQ, or both compute half of it every iteration): odd and
    even query-block counts, so either consumer may have the last turn."""
    run(2, S, S, 3, 3, D, dtype, causal, pingpong=other_schedule(D))


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("case", ["gqa", "window", "softcap", "scale0",
                                  "q-ne-k"])
@pytest.mark.parametrize("D", [64, 128])
def test_other_schedule_features(case, D, causal):
    """The other PINGPONG setting with GQA (turns continue across the
    group's heads), a window, softcap, softmax_scale 0 and seqlen_q !=
    seqlen_k."""
    pp = other_schedule(D)
    if case == "gqa":
        run(2, 1000, 777, 8, 1, D, torch.bfloat16, causal, pingpong=pp)
    elif case == "window":
        run(2, 700, 1000, 2, 1, D, torch.float16, causal, window=(100, 50),
            pingpong=pp)
    elif case == "softcap":
        run(2, 777, 1000, 2, 2, D, torch.float16, causal, softcap=20.0,
            pingpong=pp)
    elif case == "scale0":
        run(2, 300, 301, 2, 2, D, torch.float16, causal, scale=0.0,
            pingpong=pp)
    else:
        run(2, 4133, 128, 2, 2, D, torch.float16, causal, pingpong=pp)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("case", ["s17", "s1000", "s4133", "gqa", "window",
                                  "varlen-atomics"])
def test_dq_first(case, D, causal, monkeypatch, pingpong=False):
    """The lockstep schedule with dK's wgmma issued after dQ's (DQ_FIRST,
    the host's _BWD_DQ_FIRST monkeypatched on), dQ by TMA and by atomics."""
    monkeypatch.setattr(txl.ops, "_BWD_DQ_FIRST", {64: True, 128: True})
    pp = pingpong
    if case.startswith("s"):
        S = int(case[1:])
        run(2, S, S, 3, 3, D, torch.float16, causal, pingpong=pp)
    elif case == "gqa":
        run(2, 1000, 777, 8, 1, D, torch.bfloat16, causal, pingpong=pp)
    elif case == "window":
        run(2, 700, 1000, 2, 1, D, torch.float16, causal, window=(100, 50),
            softcap=20.0, pingpong=pp)
    else:
        q, k, v, do, dlse, cu_q, cu_k = varlen_inputs(VARLEN_LENS, 2, 2, D,
                                                      torch.float16)
        scale = 1.0 / math.sqrt(D)
        out = torch.empty_like(q)
        lse = torch.empty((2, q.shape[0]), device="cuda")
        max_q = max(a for a, _ in VARLEN_LENS)
        max_k = max(b for _, b in VARLEN_LENS)
        txl.ops.flash_attn_varlen_forward_into(q, k, v, cu_q, cu_k, max_q,
                                               out, lse, scale, causal)
        grads = [poisoned(t.shape, torch.float16)[1] for t in (q, k, v)]
        txl.ops.flash_attn_varlen_backward_into(
            q, k, v, out, lse, do, cu_q, cu_k, max_q, max_k, *grads, scale,
            causal, grad_lse=dlse, dq_tma=False, pingpong=pp)
        torch.cuda.synchronize()
        check_varlen(VARLEN_LENS, grads, q, k, v, do, dlse, cu_q, cu_k,
                     scale, causal, (-1, -1), 0.0)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("case", ["s17", "s1000", "s4133", "gqa", "window",
                                  "varlen-atomics"])
def test_dq_first_pingpong(case, causal, monkeypatch):
    """DQ_FIRST in the PINGPONG turns (head dim 64; at 128 the kernel
    ignores it: the registers do not allow it)."""
    test_dq_first(case, 64, causal, monkeypatch, pingpong=True)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("Sq,Sk", [(17, 1000), (1000, 17), (128, 4133),
                                   (4133, 128), (1, 999), (300, 301)])
def test_seqlen_q_ne_k(Sq, Sk, causal):
    run(2, Sq, Sk, 2, 2, 128, torch.float16, causal)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("scale", [0.0, 0.01, 0.3], ids=str)
def test_softmax_scale(scale, causal):
    """The kernel starts S^T's accumulator at -LSE2 / (scale * log2 e):
    a zero scale (uniform attention) takes the unfolded path, small and
    large ones fold."""
    run(2, 300, 301, 2, 2, 128, torch.float16, causal, scale=scale)


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


VARLEN_LENS = [(17, 1), (1, 17), (1000, 1000), (0, 40), (300, 0), (1, 1),
               (777, 129), (130, 1000)]


def varlen_inputs(lens, H, Hkv, D, dtype, seed=2):
    cu_q = torch.tensor([0] + [a for a, _ in lens],
                        device="cuda").cumsum(0).int()
    cu_k = torch.tensor([0] + [b for _, b in lens],
                        device="cuda").cumsum(0).int()
    Tq, Tk = int(cu_q[-1]), int(cu_k[-1])
    gen = torch.Generator(device="cuda").manual_seed(seed + D + H)
    q = torch.randn((Tq, H, D), device="cuda", generator=gen).to(dtype)
    k = torch.randn((Tk, Hkv, D), device="cuda", generator=gen).to(dtype)
    v = torch.randn((Tk, Hkv, D), device="cuda", generator=gen).to(dtype)
    do = torch.randn((Tq, H, D), device="cuda", generator=gen).to(dtype)
    dlse = torch.randn((H, Tq), device="cuda", generator=gen)
    return q, k, v, do, dlse, cu_q, cu_k


def check_varlen(lens, grads, q, k, v, do, dlse, cu_q, cu_k, scale, causal,
                 window, softcap):
    """Each sequence's gradients against the references on that sequence
    alone (dK/dV of keys no query sees: zero)."""
    dtype = q.dtype
    for b, (lq, lk) in enumerate(lens):
        qs, ks = int(cu_q[b]), int(cu_k[b])
        sl_q, sl_k = slice(qs, qs + lq), slice(ks, ks + lk)
        if lq == 0 or lk == 0:
            if lq:
                assert (grads[0][sl_q] == 0).all(), f"dq of sequence {b}"
            if lk:
                assert (grads[1][sl_k] == 0).all(), f"dk of sequence {b}"
                assert (grads[2][sl_k] == 0).all(), f"dv of sequence {b}"
            continue
        one = [t[None, sl] for t, sl in ((q, sl_q), (k, sl_k), (v, sl_k),
                                         (do, sl_q))]
        dl = None if dlse is None else dlse[None, :, sl_q]
        want32 = ref_grads(*one, scale, causal, torch.float32, dl, window,
                           softcap)
        want_low = ref_grads(*one, scale, causal, dtype, dl, window, softcap)
        for got, sl, w32, wlo, name in zip(grads, (sl_q, sl_k, sl_k), want32,
                                           want_low, ("dq", "dk", "dv")):
            check(got[sl], w32[0], wlo[0], f"{name} of sequence {b}")


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D,dtype,H,Hkv", [(128, torch.float16, 4, 2),
                                           (64, torch.bfloat16, 8, 1)],
                         ids=["d128-fp16-gqa2", "d64-bf16-gqa8"])
@pytest.mark.parametrize("window,softcap,dq_tma,other",
                         [((-1, -1), 0.0, True, False),
                          ((-1, -1), 0.0, False, False),
                          ((100, 30), 0.0, True, False),
                          ((-1, -1), 20.0, True, False),
                          ((-1, -1), 0.0, True, True),
                          ((-1, -1), 0.0, False, True),
                          ((100, 30), 20.0, True, True)],
                         ids=["plain", "dq-atomics", "window", "softcap",
                              "other", "other-atomics", "other-win-cap"])
def test_varlen(window, softcap, dq_tma, other, D, dtype, H, Hkv, causal):
    """flash_attn_varlen_backward_into on ragged packed sequences, with a
    gradient of the LSE too; gradient buffers poisoned."""
    q, k, v, do, dlse, cu_q, cu_k = varlen_inputs(VARLEN_LENS, H, Hkv, D,
                                                  dtype)
    scale = 1.0 / math.sqrt(D)
    Tq = q.shape[0]
    out = torch.empty_like(q)
    lse = torch.empty((H, Tq), device="cuda")
    max_q = max(a for a, _ in VARLEN_LENS)
    max_k = max(b for _, b in VARLEN_LENS)
    txl.ops.flash_attn_varlen_forward_into(q, k, v, cu_q, cu_k, max_q, out,
                                           lse, scale, causal, window,
                                           softcap)
    bufs = [poisoned(t.shape, dtype) for t in (q, k, v)]
    grads = [view for _, view in bufs]
    txl.ops.flash_attn_varlen_backward_into(
        q, k, v, out, lse, do, cu_q, cu_k, max_q, max_k, *grads, scale,
        causal, grad_lse=dlse, dq_tma=dq_tma, window_size=window,
        softcap=softcap, pingpong=other_schedule(D) if other else None)
    torch.cuda.synchronize()
    for big, view in bufs:
        assert torch.isnan(big[view.numel():]).all(), "a store past a grad"
    check_varlen(VARLEN_LENS, grads, q, k, v, do, dlse, cu_q, cu_k, scale,
                 causal, window, softcap)


def test_varlen_autograd():
    """flash_attn_varlen_func(...).backward() (a loss on O and the LSE),
    and the same under torch.compile; one long sequence (several key
    blocks per CTA grid column) among short ones."""
    lens = [(5, 3000), (1, 1), (2000, 64), (129, 130)]
    dtype = torch.bfloat16
    q, k, v, do, dlse, cu_q, cu_k = varlen_inputs(lens, 4, 2, 128, dtype, 7)
    max_q = max(a for a, _ in lens)
    max_k = max(b for _, b in lens)

    def loss_fn(fn, a, b, c):
        o, lse = fn(a, b, c, cu_q, cu_k, max_q, max_k, causal=True,
                    return_lse=True)
        return (o.float() * do.float()).sum() + \
            (lse.nan_to_num(0.0, neginf=0.0) * dlse).sum()

    qs, ks, vs = (t.clone().requires_grad_() for t in (q, k, v))
    loss_fn(txl.ops.flash_attn_varlen_func, qs, ks, vs).backward()
    check_varlen(lens, (qs.grad, ks.grad, vs.grad), q, k, v, do, dlse, cu_q,
                 cu_k, 128 ** -0.5, True, (-1, -1), 0.0)
    compiled = torch.compile(
        lambda a, b, c: loss_fn(txl.ops.flash_attn_varlen_func, a, b, c),
        fullgraph=True)
    qc, kc, vc = (t.clone().requires_grad_() for t in (q, k, v))
    compiled(qc, kc, vc).backward()
    for a, b in ((qc, qs), (kc, ks), (vc, vs)):
        torch.testing.assert_close(a.grad, b.grad)


def test_d256_refused():
    """Head dim 256 has no backward (flash_attn_bwd.py says why): a
    NotImplementedError that names the limit, dense and varlen."""
    q = torch.randn((1, 64, 2, 256), device="cuda", dtype=torch.float16,
                    requires_grad=True)
    out = txl.ops.flash_attn_func(q, q, q)
    with pytest.raises(NotImplementedError, match="255"):
        out.sum().backward()
    cu = torch.tensor([0, 64], device="cuda", dtype=torch.int32)
    qv = q.detach()[0].clone().requires_grad_()
    out = txl.ops.flash_attn_varlen_func(qv, qv, qv, cu, cu, 64, 64)
    with pytest.raises(NotImplementedError, match="head_dim 256"):
        out.sum().backward()


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


# The persistent launch (flash_bwd PERSISTENT, static or DYNAMIC order):
# all SMs' worth of CTAs, and 3, 5 or 7 CTAs so that each walks many (key
# block, kv head) tiles and the ring positions, phases, dS^T parities and
# PINGPONG turns run on across tiles of different lengths (causal, ragged)
# and tiles of no iterations.
PERS = [("static", None), ("static", 7), ("dynamic", None), ("dynamic", 3)]


def pers_id(p):
    return f"{p[0]}-{p[1] or 'sms'}"


@pytest.mark.parametrize("pers", PERS, ids=pers_id)
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("S", [1, 17, 1000, 4133])
def test_persistent(S, D, causal, pers):
    run(2, S, S, 3, 3, D, torch.float16, causal, persistent=pers[0],
        max_ctas=pers[1])


@pytest.mark.parametrize("pers", [("static", 5), ("dynamic", 5)],
                         ids=pers_id)
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("case", ["gqa8", "gqa8x2", "q-ne-k", "k-ne-q",
                                  "window", "softcap", "other", "bf16"])
def test_persistent_features(case, D, causal, pers):
    """The persistent launch with GQA (the tiles of a kv head sum over its
    group's query heads; causal sections of several kv heads), seqlen_q !=
    seqlen_k both ways (causal: query rows that see no key), a window
    (keys 0 .. 199 are seen by no query: tiles of no iterations between
    others), softcap, the other PINGPONG setting and bf16."""
    kw = dict(persistent=pers[0], max_ctas=pers[1])
    if case == "gqa8":
        run(2, 1000, 777, 8, 1, D, torch.bfloat16, causal, **kw)
    elif case == "gqa8x2":
        run(2, 1000, 1000, 16, 2, D, torch.float16, causal, **kw)
    elif case == "q-ne-k":
        run(2, 4133, 128, 2, 2, D, torch.float16, causal, **kw)
    elif case == "k-ne-q":
        run(2, 17, 1000, 2, 2, D, torch.float16, causal, **kw)
    elif case == "window":
        run(2, 700, 1000, 2, 1, D, torch.float16, causal, window=(100, 50),
            **kw)
    elif case == "softcap":
        run(2, 777, 1000, 2, 2, D, torch.float16, causal, softcap=20.0, **kw)
    elif case == "other":
        run(2, 1000, 1000, 3, 3, D, torch.float16, causal,
            pingpong=other_schedule(D), **kw)
    else:
        run(2, 4133, 4133, 2, 1, D, torch.bfloat16, causal, **kw)


@pytest.mark.parametrize("pers", [("static", 3), ("dynamic", 3)],
                         ids=pers_id)
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D,dtype,H,Hkv", [(128, torch.float16, 4, 2),
                                           (64, torch.bfloat16, 8, 1)],
                         ids=["d128-fp16-gqa2", "d64-bf16-gqa8"])
@pytest.mark.parametrize("dq_tma,other", [(True, False), (False, False),
                                          (True, True)],
                         ids=["plain", "dq-atomics", "other"])
def test_persistent_varlen(dq_tma, other, D, dtype, H, Hkv, causal, pers):
    """flash_attn_varlen_backward_into through the persistent launch:
    ragged sequences of 0, 1, 17, 1000 ... tokens (tiles past a sequence's
    keys have no iterations), with a gradient of the LSE; gradient
    buffers poisoned."""
    q, k, v, do, dlse, cu_q, cu_k = varlen_inputs(VARLEN_LENS, H, Hkv, D,
                                                  dtype)
    scale = 1.0 / math.sqrt(D)
    out = torch.empty_like(q)
    lse = torch.empty((H, q.shape[0]), device="cuda")
    max_q = max(a for a, _ in VARLEN_LENS)
    max_k = max(b for _, b in VARLEN_LENS)
    txl.ops.flash_attn_varlen_forward_into(q, k, v, cu_q, cu_k, max_q, out,
                                           lse, scale, causal)
    bufs = [poisoned(t.shape, dtype) for t in (q, k, v)]
    grads = [view for _, view in bufs]
    txl.ops.flash_attn_varlen_backward_into(
        q, k, v, out, lse, do, cu_q, cu_k, max_q, max_k, *grads, scale,
        causal, grad_lse=dlse, dq_tma=dq_tma,
        pingpong=other_schedule(D) if other else None, persistent=pers[0],
        max_ctas=pers[1])
    torch.cuda.synchronize()
    for big, view in bufs:
        assert torch.isnan(big[view.numel():]).all(), "a store past a grad"
    check_varlen(VARLEN_LENS, grads, q, k, v, do, dlse, cu_q, cu_k, scale,
                 causal, (-1, -1), 0.0)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize("D", [64, 128])
def test_persistent_equals_grid(D, causal):
    """The persistent launch, static and dynamic, adds the same dK/dV
    as the grid launch (bit for bit: each tile's sums run in the same
    order) and the same dQ up to the order of the fp32 reduce-adds."""
    q, k, v, do = make(2, 1000, 1000, 4, 2, D, torch.float16, 3)
    scale = 1.0 / math.sqrt(D)
    out = torch.empty_like(q)
    lse = torch.empty((2, 4, 1000), device="cuda")
    txl.ops.flash_attn_forward_into(q, k, v, out, lse, scale, causal)
    got = {}
    for pers in (False, "static", "dynamic"):
        grads = [torch.full_like(t, float("nan")) for t in (q, k, v)]
        txl.ops.flash_attn_backward_into(q, k, v, out, lse, do, *grads,
                                         scale, causal, persistent=pers,
                                         max_ctas=5)
        got[pers] = grads
    torch.cuda.synchronize()
    for pers in ("static", "dynamic"):
        assert torch.equal(got[pers][1], got[False][1]), f"{pers} dk"
        assert torch.equal(got[pers][2], got[False][2]), f"{pers} dv"
        torch.testing.assert_close(got[pers][0], got[False][0], atol=1e-2,
                                   rtol=1e-2)


def test_persistent_debug_sync():
    """Under TXL_DEBUG_SYNC (every mbarrier wait bounded: a hang becomes
    a reported error) the persistent kernels (static and dynamic) run to
    the end, causal and not (head dim 64 full, 128 causal), 3 CTAs
    walking many tiles, and agree with the grid launch. In a subprocess:
    a timed-out wait destroys the context."""
    import os
    import subprocess
    import sys
    from conftest import REPO
    script = """
import math, torch, txl.ops
for D, causal in ((64, False), (128, True)):
        g = torch.Generator(device="cuda").manual_seed(D)
        q, k, v, do = (torch.randn((2, 1000, 4, D), device="cuda",
                                   generator=g).half() for _ in range(4))
        k, v = k[:, :, :2].contiguous(), v[:, :, :2].contiguous()
        out = torch.empty_like(q)
        lse = torch.empty((2, 4, 1000), device="cuda")
        s = 1 / math.sqrt(D)
        txl.ops.flash_attn_forward_into(q, k, v, out, lse, s, causal)
        res = []
        for pers in (False, "static", "dynamic"):
            gr = [torch.full_like(t, float("nan")) for t in (q, k, v)]
            txl.ops.flash_attn_backward_into(q, k, v, out, lse, do, *gr, s,
                                             causal, persistent=pers,
                                             max_ctas=3)
            res.append(gr)
        torch.cuda.synchronize()
        for got in res[1:]:
            for a, b in zip(got, res[0]):
                assert not torch.isnan(a).any()
                tol = 1e-2 * max(1.0, b.float().abs().max().item())
                assert (a.float() - b.float()).abs().max().item() <= tol
print("OK")
"""
    env = dict(os.environ, TXL_DEBUG_SYNC="1",
               TXL_DEBUG_SYNC_TIMEOUT_MS="5000", TXL_ALWAYS_COMPILE="1")
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(REPO, "python"), env.get("PYTHONPATH", "")])
    r = subprocess.run([sys.executable, "-c", script], env=env,
                       capture_output=True, text=True, timeout=300)
    assert "OK" in r.stdout, r.stdout + r.stderr


def test_persistent_bad_value():
    """persistent= takes None, False, True, "static" or "dynamic"; anything
    else is refused with a message that names them."""
    q, k, v, do = make(1, 64, 64, 2, 2, 64, torch.float16, 0)
    out = torch.empty_like(q)
    lse = torch.empty((1, 2, 64), device="cuda")
    txl.ops.flash_attn_forward_into(q, k, v, out, lse, 0.125, False)
    grads = [torch.empty_like(t) for t in (q, k, v)]
    with pytest.raises(ValueError, match="'static' or 'dynamic'"):
        txl.ops.flash_attn_backward_into(q, k, v, out, lse, do, *grads,
                                         0.125, False, persistent="yes")

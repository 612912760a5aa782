#!/usr/bin/env python3
"""The FlashAttention backward, this tree's kernel against cuDNN's SDPA
backward and, with --baseline, an older kernel source, in one process,
alternating.

    git show dc85849:python/txl/ops/flash_attn_bwd.py > /tmp/bwd_old.py
    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python:bench \\
        python3 bench/ab_attention_bwd.py [--rounds 2] [--shape B,H,S,D] \\
        [--baseline /tmp/bwd_old.py]

The baseline ("main" in the output) may take LSE2/delta by pointer (as
flash_bwd did before the statistics came by TMA, dc85849 and earlier) or
by TMA (later ones).

txl: the preprocess, dQ zeroing, flash_bwd and the dQ conversion (the
same work as txl.ops.flash_attn_backward_into), timed without autograd;
cuDNN: torch.autograd.grad through SDPA's cuDNN backend (its own
preprocess included). All three are checked against each other first.
TFLOP/s = 2.5 x 4 B H S^2 D (/2 causal) / time; per variant the rounds,
their mean over cuDNN's mean, and the median of the per-round ratios to
cuDNN. Variants of this tree's kernel (--variants picks some,
comma-separated): "new" (the host's defaults), "new-main" (main's
configuration at 4349a94: lockstep, its ring depths), "new-pp"
(PINGPONG=True: the consumers take turns at dQ), "new-lock"
(PINGPONG=False: both compute half of dQ every iteration, in lockstep at
barrier 10), "new-late" (DQ_LATE=True: dQ added in the next iteration),
"new-p32" (P16_DS=False: dS^T from P^T in fp32), "new-s3" (a
three-stage Q/dO ring; D128 only without PINGPONG), "new-pp-s3" and
"new-pp-s4" (PINGPONG with a three- or four-stage ring), "new-lock-s4",
"new-pp-red" (PINGPONG, dQ added by red.global.add from registers: no
fp32 dQ tiles, so "new-pp-red-s3" has room for a three-stage ring at
D128), "new-dqfirst" (lockstep with dK's wgmma issued after dQ's, so
that dQ's epilogue runs under it; "-s4": four stages; "new-pp-dqfirst":
the same in the PINGPONG turns, D64 only), "new-pers" (the persistent
launch, PERSISTENT=True: one CTA per SM walking the (key block, kv head)
tiles in a static order, the host's schedule otherwise; "new-pers-dyn"
taking the tiles from a counter, flash_bwd DYNAMIC; "new-pers-lock" /
"new-pers-pp" static with PINGPONG off / on). Ring depths not given are the host's
(txl.ops._BWD_STAGES).
"""
import argparse
import importlib.util
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import bench_ms  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402

import txl  # noqa: E402
import txl.ops  # noqa: E402
from txl.ops import flash_attn_bwd as new_mod  # noqa: E402


def load_baseline(path):
    """The kernel module at `path` (a copy of an older
    flash_attn_bwd.py), or None."""
    if not path:
        return None
    spec = importlib.util.spec_from_file_location("flash_attn_bwd_baseline",
                                                  path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def launch(mod, old, q, k, v, out, lse, do, dq, dk, dv, scale, causal,
           **extra):
    """txl.ops.flash_attn_backward_into's dense path with `mod`'s kernels;
    old: main's kernel signature (LSE2/delta pointers)."""
    from txl import TensorDescriptor
    B, S, H, D = q.shape
    Hkv = k.shape[2]
    bm, hn, bn = mod.BM, mod.HN, mod.BN
    sq_pad = (S + bm - 1) // bm * bm
    rows = B * S
    dq_acc = torch.zeros((B * sq_pad, H, D), device=q.device,
                         dtype=torch.float32)
    stats = torch.empty((2, B * H, sq_pad), device=q.device,
                        dtype=torch.float32)
    lse2, delta = stats[0], stats[1]
    mod.bwd_preprocess[(sq_pad // bm, B * H)](
        out, do, lse, lse, lse2, delta, S, sq_pad, H, H * D, lse, D=D,
        BLK=bm, HAS_DLSE=False, VARLEN=False, num_warps=4)
    qd = TensorDescriptor.from_tensor(q.view(rows, H * D), [bm, D])
    dod = TensorDescriptor.from_tensor(do.view(rows, H * D), [bm, D])
    kd = TensorDescriptor.from_tensor(k.view(rows, Hkv * D), [hn, D])
    kqd = TensorDescriptor.from_tensor(k.view(rows, Hkv * D), [hn, D // 2])
    vd = TensorDescriptor.from_tensor(v.view(rows, Hkv * D), [hn, D])
    dqd = TensorDescriptor.from_tensor(dq_acc.view(-1, H * D), [bm, D // 2])
    qk_scale = scale * math.log2(math.e)
    if mod is new_mod:
        extra.setdefault("PINGPONG", txl.ops._BWD_PINGPONG[D])
        extra.setdefault("DQ_FIRST", txl.ops._BWD_DQ_FIRST[D])
    if old:
        stat_args = (lse2, delta)
    else:
        stat_args = (TensorDescriptor.from_tensor(stats.view(-1), [bm]),
                     lse2.numel())
    stages = extra.pop("STAGES", txl.ops._BWD_STAGES[D] if mod is new_mod
                       else MAIN_STAGES[D])
    grid = ((S + bn - 1) // bn, B * Hkv)
    if extra.get("PERSISTENT"):
        # One CTA per SM walking the grid's tiles (the launcher's
        # _launch_bwd does the same); causal: sections of kv heads.
        tiles = grid[0] * grid[1]
        grid = (min(tiles, txl.ops._num_sms(q.device)),)
        extra.update(num_bh=B * Hkv, k_blocks=(S + bn - 1) // bn,
                     section=txl.ops._bwd_heads_per_section(
                         S, D, q.element_size(), H // Hkv, B * Hkv)
                     if causal else 1)
        if extra.get("DYNAMIC"):
            # The tile counter and the CTAs' slots, zeroed every call (as
            # the launcher does).
            extra["sched_ptr"] = torch.zeros(1 + grid[0], device=q.device,
                                             dtype=torch.int32)
    mod.flash_bwd[grid](
        qd, kd, vd, kqd, dod, dqd, dk, dv, *stat_args, dq_acc, S, S, sq_pad,
        H, Hkv, H // Hkv, qk_scale, scale, 0, 0, 1.0, lse, lse, D=D,
        STAGES=stages, CAUSAL=causal, DQ_TMA=extra.pop("DQ_TMA", True),
        LOCAL=False,
        SOFTCAP=False, VARLEN=False, num_warps=4, num_warpgroups=3, **extra)
    dq.copy_(dq_acc.view(B, sq_pad, H, D)[:, :S])


# The Q/dO ring depths and the schedule of main at 4349a94 ("new-main").
MAIN_STAGES = {64: 3, 128: 2}
VARIANTS = {"new": {}, "new-main": dict(PINGPONG=False, STAGES="main",
                                        DQ_FIRST=False),
            "new-dqfirst": dict(PINGPONG=False, DQ_FIRST=True),
            "new-dqfirst-s4": dict(PINGPONG=False, DQ_FIRST=True, STAGES=4),
            "new-pp-dqfirst": dict(PINGPONG=True, DQ_FIRST=True),
            "new-pp": dict(PINGPONG=True),
            "new-lock": dict(PINGPONG=False), "new-late": dict(DQ_LATE=True),
            "new-p32": dict(P16_DS=False),
            "new-s3": dict(STAGES=3, PINGPONG=False),
            "new-pp-s4": dict(PINGPONG=True, STAGES=4),
            "new-pp-s3": dict(PINGPONG=True, STAGES=3),
            "new-lock-s4": dict(PINGPONG=False, STAGES=4),
            "new-pp-red": dict(PINGPONG=True, DQ_TMA=False),
            "new-pp-red-s3": dict(PINGPONG=True, DQ_TMA=False, STAGES=3),
            "new-pers": dict(PERSISTENT=True),
            "new-pers-dyn": dict(PERSISTENT=True, DYNAMIC=True),
            "new-pers-lock": dict(PERSISTENT=True, PINGPONG=False),
            "new-pers-pp": dict(PERSISTENT=True, PINGPONG=True)}


def run_shape(B, H, S, D, causal, rounds, old_mod=None,
              dtype=torch.float16, names=tuple(VARIANTS)):
    gen = torch.Generator(device="cuda").manual_seed(S + D + 1)
    q, k, v, do = (torch.randn((B, S, H, D), device="cuda", generator=gen,
                               dtype=dtype) for _ in range(4))
    scale = 1 / math.sqrt(D)
    out = torch.empty_like(q)
    lse = torch.empty((B, H, S), device="cuda")
    txl.ops.flash_attn_forward_into(q, k, v, out, lse, scale, causal)
    flops = 2.5 * 4 * B * H * S * S * D / (2 if causal else 1)
    variants = {n: {k: MAIN_STAGES[D] if v == "main" else v
                    for k, v in VARIANTS[n].items()} for n in names}
    names = list(variants) + (["main"] if old_mod else [])
    grads = {n: tuple(torch.empty_like(t) for t in (q, k, v)) for n in names}
    fns = {n: (lambda n=n, kw=kw: launch(new_mod, False, q, k, v, out, lse,
                                         do, *grads[n], scale, causal,
                                         **dict(kw)))
           for n, kw in variants.items()}
    if old_mod:
        # Statistics by pointer before they came by TMA (dc85849).
        by_ptr = "stats_desc" not in open(old_mod.__file__).read()
        fns["main"] = lambda: launch(old_mod, by_ptr, q, k, v, out, lse, do,
                                     *grads["main"], scale, causal)
    qr, kr, vr = (t.detach().clone().requires_grad_() for t in (q, k, v))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        o_ref = F.scaled_dot_product_attention(
            qr.transpose(1, 2), kr.transpose(1, 2), vr.transpose(1, 2),
            is_causal=causal).transpose(1, 2)

    def cudnn():
        return torch.autograd.grad(o_ref, (qr, kr, vr), do,
                                   retain_graph=True)
    want = cudnn()
    for name, fn in fns.items():
        for t in grads[name]:
            t.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        for g, w, n in zip(grads[name], want, "qkv"):
            scale_w = w.float().abs().max().item()
            err = (g.float() - w.float()).abs().max().item()
            assert err <= 2e-2 * max(scale_w, 1.0), \
                f"{name} d{n}: vs cuDNN max error {err} (max {scale_w})"
    for g, w, n in zip(grads[next(iter(grads))], grads.get("main", ()),
                       "qkv"):
        err = (g.float() - w.float()).abs().max().item()
        print(f"  d{n}: new vs main max |diff| {err:.3g}", flush=True)
    fns["cudnn"] = cudnn
    ref = "new" if "new" in grads else next(iter(grads))
    for name in grads:
        if name != ref:
            err = max((a.float() - b.float()).abs().max().item()
                      for a, b in zip(grads[name], grads[ref]))
            print(f"  {name} vs {ref}: max |diff| {err:.3g}", flush=True)
    res = {n: [] for n in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            res[name].append(flops / bench_ms(fn, False) / 1e9)
    tag = f"B{B} H{H} S{S} D{D}" + (" causal" if causal else "")
    cud = sum(res["cudnn"]) / rounds
    for name, r in res.items():
        mean = sum(r) / rounds
        # Clocks drift between rounds (cuDNN itself by 10%): the median of
        # the per-round ratios to cuDNN is the steadier figure.
        ratio = statistics.median(x / c for x, c in zip(r, res["cudnn"]))
        print(f"{tag:27} {name:9} " + " ".join(f"{x:5.0f}" for x in r) +
              f"  mean {mean:5.1f} x cuDNN {mean / cud:.3f} "
              f"med.ratio {ratio:.3f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--shape", default="4,32,8192,128")
    ap.add_argument("--baseline", default="",
                    help="an older flash_attn_bwd.py to time as 'main'")
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help="this tree's variants to time, comma-separated")
    ap.add_argument("--causal", default="0,1",
                    help="0 (non-causal), 1 (causal) or both")
    args = ap.parse_args()
    old_mod = load_baseline(args.baseline)
    B, H, S, D = (int(x) for x in args.shape.split(","))
    names = [n for n in args.variants.split(",") if n]
    for n in names:
        if n not in VARIANTS:
            ap.error(f"unknown variant {n} (known: {', '.join(VARIANTS)})")
    for causal in (int(c) for c in args.causal.split(",")):
        run_shape(B, H, S, D, bool(causal), args.rounds, old_mod,
                  names=names)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

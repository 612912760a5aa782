#!/usr/bin/env python3
"""Interleaved A/B of the FlashAttention forward's launches, one process:
the persistent kernel (one CTA per SM walking the work tiles; "static":
tiles dealt round-robin, "dynamic": taken from a counter; "static-q1":
static with one Q slot instead of two) against the grid of one CTA per
tile ("grid"), with cuDNN's SDPA as the yardstick; "-nopp": without the
consumers' ping-pong.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python:bench \\
        python3 bench/ab_flash_fwd_persistent.py [--rounds 2] [--iters 5]

Each output (and each launch's LSE) is checked against cuDNN's before
anything is timed. A round times cuDNN and every variant of the shape
back to back (each: one warm-up call, then --iters calls between CUDA
events (more for small shapes, so a measurement takes about as long),
the median call); the line gives the median over rounds of TFLOP/s (4 B H
S^2 D, halved for causal) and each variant's ratio to grid and to cuDNN,
then every round's numbers so drift shows. The fp8 row runs the e4m3
kernel against cuDNN's fp16 on the same values.
"""

import argparse
import math
import statistics

import torch
from torch.nn.attention import SDPBackend

import bench_attention as ba
import txl.ops

# (B, H, S, D, dtype, causal, variants); fp8: e4m3 q, k, v against cuDNN's
# fp16 on the same (dequantized) values
SHAPES = [(16, 32, 16384, 128, "fp16", False, ("static", "grid")),
          (16, 32, 16384, 128, "fp16", True, ("dynamic", "static", "grid")),
          (8, 16, 8192, 64, "fp16", False, ("static", "static-q1",
                                             "static-nopp", "grid-nopp",
                                             "grid")),
          (8, 16, 8192, 64, "fp16", True, ("dynamic", "grid")),
          (16, 32, 16384, 128, "fp8", False, ("static", "grid")),
          (4, 16, 8192, 256, "fp16", True, ("dynamic", "grid")),
          (4, 16, 8192, 256, "fp16", False, ("static", "grid"))]


def time_ms(fn, iters):
    fn()
    times = []
    for _ in range(iters):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times)


def launcher(variant, fp8, q, k, v, o, lse, scale, causal):
    base = variant.split("-")[0]
    persistent = False if base == "grid" else base
    slots = 1 if variant.endswith("-q1") else None
    pingpong = not variant.endswith("-nopp")

    def fn():
        saved = dict(txl.ops._FWD_Q_SLOTS)
        if slots:
            txl.ops._FWD_Q_SLOTS.update({d: slots for d in saved})
        try:
            if fp8:
                txl.ops.flash_attn_fp8_forward_into(
                    q, k, v, o, lse, scale, causal, persistent=persistent)
            else:
                txl.ops.flash_attn_forward_into(q, k, v, o, lse, scale,
                                                causal, persistent=persistent,
                                                pingpong=pingpong)
        finally:
            txl.ops._FWD_Q_SLOTS.update(saved)
        return o
    return fn


def one_shape(B, H, S, D, dt, causal, variants, rounds, iters):
    fp8 = dt == "fp8"
    dtype = torch.float16 if fp8 else ba.DTYPES[dt]
    gen = torch.Generator(device="cuda").manual_seed(S + D)
    q, k, v = (torch.randn((B, S, H, D), device="cuda", generator=gen,
                           dtype=dtype) for _ in range(3))
    q8 = k8 = v8 = None
    if fp8:
        q8, k8, v8 = (t.to(torch.float8_e4m3fn) for t in (q, k, v))
        q, k, v = (t.to(torch.float16) for t in (q8, k8, v8))
    scale = 1 / math.sqrt(D)
    cudnn = ba.sdpa(SDPBackend.CUDNN_ATTENTION, q, k, v, causal)
    ref = cudnn().transpose(1, 2)
    o = torch.empty_like(q, dtype=torch.bfloat16 if fp8 else dtype)
    lse = torch.empty((B, H, S), device="cuda")
    runs = {"cudnn": cudnn}
    for name in variants:
        runs[name] = launcher(name, fp8, q8 if fp8 else q, k8 if fp8 else k,
                              v8 if fp8 else v, o, lse, scale, causal)
        o.fill_(float("nan"))
        got = runs[name]()
        torch.cuda.synchronize()
        # fp8: P is rounded to e4m3 before P V (test_flash_attn_fp8.py)
        tol = (8e-2, 2e-2) if fp8 else (2e-2, 2e-2)
        torch.testing.assert_close(got.to(ref.dtype), ref, atol=tol[0],
                                   rtol=tol[1])
        del got
        ba.check_lse(q, k, lse, causal)
    del ref
    flops = 4 * B * H * S * S * D / (2 if causal else 1)
    # About as long per measurement as the largest shape's `iters` calls.
    reps = max(iters, min(8 * iters, int(iters * 7e13 / flops)))
    per_round = []
    for _ in range(rounds):
        per_round.append({n: flops / time_ms(fn, reps) / 1e9
                          for n, fn in runs.items()})
    med = {n: statistics.median(r[n] for r in per_round) for n in runs}
    label = f"B{B} H{H} S{S} D{D} {dt}" + (" causal" if causal else "")
    parts = [f"cudnn {med['cudnn']:.1f}"]
    for n in variants:
        ratio = "" if n == "grid" else f" ({med[n] / med['grid']:.3f}x grid)"
        parts.append(f"{n} {med[n]:.1f}{ratio}")
    best = max(variants, key=lambda n: med[n])
    print(f"{label}: " + ", ".join(parts) + f" TFLOP/s; best {best} "
          f"{med[best] / med['cudnn']:.3f}x cudnn", flush=True)
    print("    rounds: " + "; ".join(
        " ".join(f"{n} {r[n]:.1f}" for n in runs) for r in per_round),
        flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--iters", type=int, default=5)
    p.add_argument("--shapes", default="",
                   help="comma-separated indices into SHAPES (default all)")
    args = p.parse_args()
    shapes = SHAPES if not args.shapes else [
        SHAPES[int(i)] for i in args.shapes.split(",")]
    print(f"{torch.cuda.get_device_name(0)}, "
          f"{torch.cuda.get_device_properties(0).multi_processor_count} SMs",
          flush=True)
    for shape in shapes:
        try:
            one_shape(*shape, args.rounds, args.iters)
        except Exception as e:  # noqa: BLE001
            print(f"{shape[:6]}: FAILED {type(e).__name__}: "
                  f"{str(e).splitlines()[0][:300]}", flush=True)
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

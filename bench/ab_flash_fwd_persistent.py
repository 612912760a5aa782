#!/usr/bin/env python3
"""Interleaved A/B of the FlashAttention forward's launches and tunings,
one process, with cuDNN's SDPA as the yardstick. A variant is a launch
and modifiers joined by "-": the launch "default" (txl/ops FWD_CONFIG's
defaults), "grid" (one CTA per tile), "static" (one CTA per SM, tiles
dealt round-robin) or "dynamic" (taken from a counter); the modifier
"nopp" turns the consumers' ping-pong off, the others each replace
FwdConfig fields for the call (flash_attn_forward_into's `tuning`): "q1"
one Q slot, "nc3" three consumer warpgroups (192-row tiles), "oregs" O
stored from the accumulator's registers, "ov" / "noov" the
intra-warpgroup overlap on / off, "s<N>" N K/V stages, "bn<N>" N-key
blocks, "kv<N>" sections
of the causal order sized for N MB of K/V in L2, "cb" causal bounds per
consumer warpgroup. E.g. "static-nc3", "dynamic-oregs-ov", "dynamic-kv8".

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python:bench \\
        python3 bench/ab_flash_fwd_persistent.py [--rounds 2] [--iters 5] \\
        [--shapes 2,3] [--variants default,static-nc3]

Each output (and each launch's LSE) is checked against cuDNN's before
anything is timed. A round times cuDNN and every variant of the shape
back to back (each: one warm-up call, then --iters calls between CUDA
events (more for small shapes, so a measurement takes about as long),
the median call); the line gives the median over rounds of TFLOP/s (4 B H
S^2 D, halved for causal) and each variant's ratio to the shape's first
variant, the best's ratio to cuDNN, then every round's numbers so drift
shows. The fp8 row runs the e4m3
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
SHAPES = [(16, 32, 16384, 128, "fp16", False, ("grid", "static")),
          (16, 32, 16384, 128, "fp16", True, ("grid", "dynamic", "static")),
          (8, 16, 8192, 64, "fp16", False, ("default", "grid-nc3",
                                             "grid-nc3-noov",
                                             "static-nc3-noov")),
          (8, 16, 8192, 64, "fp16", True, ("default", "dynamic-cb",
                                            "dynamic-nc3-noov",
                                            "dynamic-nc3-noov-cb",
                                            "grid-nc3-noov")),
          # fp8 with 256-key blocks: the only such tiling that ptxas fits
          # without spills (grid launch, two stages, no intra-warpgroup
          # overlap; session 15, CPU only)
          (16, 32, 16384, 128, "fp8", False, ("grid", "static",
                                              "grid-bn256-s2-noov")),
          (4, 16, 8192, 256, "fp16", True, ("default", "dynamic-noov",
                                             "dynamic-cb", "dynamic-kv8")),
          (4, 16, 8192, 256, "fp16", False, ("default", "static-noov"))]
MODIFIERS = {"q1": {"q_slots": 1}, "nc3": {"consumers": 3},
             "oregs": {"o_from_regs": True}, "ov": {"overlap": True},
             "noov": {"overlap": False}, "cb": {"consumer_bounds": True}}


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


def parse_variant(variant):
    """(persistent, pingpong, tuning) of a variant name (module doc)."""
    base, *mods = variant.split("-")
    if base not in ("default", "grid", "static", "dynamic"):
        raise ValueError(f"variant {variant!r}: unknown launch {base!r}")
    persistent = {"default": None, "grid": False}.get(base, base)
    pingpong = True
    tuning = {}
    for m in mods:
        if m == "nopp":
            pingpong = False
        elif m in MODIFIERS:
            tuning.update(MODIFIERS[m])
        elif m[:1] == "s" and m[1:].isdigit():
            tuning["stages"] = int(m[1:])
        elif m[:2] == "bn" and m[2:].isdigit():
            tuning["block_n"] = int(m[2:])
        elif m[:2] == "kv" and m[2:].isdigit():
            tuning["l2_kv_bytes"] = int(m[2:]) << 20
        else:
            raise ValueError(f"variant {variant!r}: unknown modifier {m!r}")
    return persistent, pingpong, tuning or None


def launcher(variant, fp8, q, k, v, o, lse, scale, causal):
    persistent, pingpong, tuning = parse_variant(variant)
    if fp8 and not pingpong:
        raise ValueError(f"variant {variant!r}: fp8 always ping-pongs")

    def fn():
        if fp8:
            txl.ops.flash_attn_fp8_forward_into(
                q, k, v, o, lse, scale, causal, persistent=persistent,
                tuning=tuning)
        else:
            txl.ops.flash_attn_forward_into(q, k, v, o, lse, scale, causal,
                                            persistent=persistent,
                                            pingpong=pingpong, tuning=tuning)
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
    first = variants[0]
    for n in variants:
        ratio = "" if n == first else \
            f" ({med[n] / med[first]:.3f}x {first})"
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
    p.add_argument("--variants", default="",
                   help="comma-separated variants replacing each chosen "
                   "shape's own (module doc)")
    args = p.parse_args()
    shapes = SHAPES if not args.shapes else [
        SHAPES[int(i)] for i in args.shapes.split(",")]
    if args.variants:
        shapes = [s[:6] + (tuple(args.variants.split(",")),)
                  for s in shapes]
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

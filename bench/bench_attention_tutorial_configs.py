#!/usr/bin/env python3
"""Triton's fused-attention tutorial kernel, Triton 3.6 against txl from the
same source, one launch config at a time (bench/_attention_tutorial.py's
CONFIGS), at bench_attention.py's fp16 shapes: which config each compiler
would pick and where txl loses. Each output is checked against Triton's
before it is timed.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/bench_attention_tutorial_configs.py [--shapes I,J]
            [--configs "64,64,2,4;128,128,3,8"] [--quick]

Prints one line per (shape, config): TFLOP/s of both and txl/Triton, then
per shape each compiler's best config and the ratio of the bests (what the
autotuned comparison in bench_attention.py measures)."""

import argparse
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import bench_ms, header  # noqa: E402
import _attention_tutorial as tut  # noqa: E402
from bench_attention import SHAPES as FWD_SHAPES  # noqa: E402

import torch  # noqa: E402
import triton  # noqa: E402

import txl  # noqa: E402

# bench_attention.py's fp16 forward shapes: (B, H, S, D, causal).
SHAPES = [(B, H, S, D, causal) for B, H, S, D, dtype, causal, _goal in
          FWD_SHAPES if dtype == "fp16"]


def launcher(kernel, q, k, v, causal, config):
    """A no-argument launch of `kernel` at one config, on [B, H, S, D]."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    bm, bn, stages, warps = config
    Z, H, N, D = q.shape
    o = torch.empty_like(q)
    m = torch.empty((Z, H, N), device=q.device, dtype=torch.float32)
    descs = [TensorDescriptor(t, shape=[Z * H * N, D], strides=[D, 1],
                              block_shape=[rows, D])
             for t, rows in ((q, bm), (k, bn), (v, bn), (o, bm))]

    def run():
        kernel[(triton.cdiv(N, bm), Z * H, 1)](
            D ** -0.5, m, Z, H, *descs, N_CTX=N, HEAD_DIM=D, BLOCK_M=bm,
            BLOCK_N=bn, FP8_OUTPUT=False, STAGE=3 if causal else 1,
            warp_specialize=False, num_stages=stages, num_warps=warps)
        return o
    return run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="",
                    help="comma-separated indices into the fp16 shapes")
    ap.add_argument("--configs", default="",
                    help="only these launch configs, BM,BN,STAGES,WARPS "
                    "separated by ';', each optionally only at some head "
                    "dims: 64,64,2,4@64,256 (default: all of CONFIGS)")
    ap.add_argument("--quick", action="store_true",
                    help="shorter timing (bench_ms's quick mode)")
    args = ap.parse_args()
    print(header(torch, triton, txl), flush=True)
    source = tut._load()._attn_fwd.fn  # Triton's JITFunction
    kernels = {"triton": source, "txl": txl.jit(source.fn)}
    picks = [int(i) for i in args.shapes.split(",")] if args.shapes else \
        range(len(SHAPES))
    configs = []  # (config, head dims or None for all)
    for c in filter(None, args.configs.split(";")):
        config, _, dims = c.partition("@")
        configs.append((tuple(int(x) for x in config.split(",")),
                        {int(d) for d in dims.split(",")} if dims else None))
    configs = configs or [(c, None) for c in tut.CONFIGS]
    for i in picks:
        B, H, S, D, causal = SHAPES[i]
        name = f"B{B} H{H} S{S} D{D}" + (" causal" if causal else "")
        gen = torch.Generator(device="cuda").manual_seed(S + D)
        q, k, v = (torch.randn((B, H, S, D), device="cuda", generator=gen,
                               dtype=torch.float16) for _ in range(3))
        flops = 4 * B * H * S * S * D / (2 if causal else 1)
        best = {}
        for config, dims in configs:
            if config[1] > D or (dims and D not in dims):
                continue
            row = {}
            ref = None
            for who, kernel in kernels.items():
                fn = launcher(kernel, q, k, v, causal, config)
                try:
                    with warnings.catch_warnings(record=True) as w:
                        warnings.simplefilter("always")
                        out = fn().clone()
                        torch.cuda.synchronize()
                    spill = [str(x.message) for x in w if "spill" in
                             str(x.message)]
                except Exception as e:  # noqa: BLE001
                    row[who] = f"failed: {str(e).splitlines()[0][:80]}"
                    continue
                if ref is None:
                    ref = out
                else:
                    try:
                        torch.testing.assert_close(out, ref, atol=2e-2,
                                                   rtol=2e-2)
                    except AssertionError as e:
                        row[who] = "MISMATCH " + str(e).splitlines()[0][:60]
                        continue
                tf = flops / bench_ms(fn, args.quick) / 1e9
                row[who] = f"{tf:6.1f}" + (" (spills)" if spill else "")
                if tf > best.get(who, (0, None))[0]:
                    best[who] = (tf, config)
            ratio = ""
            try:
                ratio = f"{float(row['txl'][:6]) / float(row['triton'][:6]):.3f}"
            except (KeyError, ValueError):
                pass
            print(f"{name:28s} {str(config):20s} triton {row.get('triton')}"
                  f"  txl {row.get('txl')}  {ratio}", flush=True)
        if "triton" in best and "txl" in best:
            print(f"{name:28s} BEST triton {best['triton'][0]:.1f} "
                  f"{best['triton'][1]}  txl {best['txl'][0]:.1f} "
                  f"{best['txl'][1]}  {best['txl'][0] / best['triton'][0]:.3f}",
                  flush=True)
        del q, k, v
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

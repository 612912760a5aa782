#!/usr/bin/env python3
"""The FlashAttention backward's two ways of accumulating dQ, timed against
each other and the forward, in one process (no autograd around them).

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/probe_attention_bwd.py [S]

For D128 (B4 H32) and D64 (B8 H16), fp16, causal and not, at seqlen S
(default 8192): txl.ops.flash_attn_backward_into (preprocess, dQ zeroing,
the main kernel, the dQ conversion) with dq_tma=True (TMA reduce-add) and
False (red.v2 atomics), as TFLOP/s = 2.5 x the forward's flops / time, and
the forward's TFLOP/s. bench/bench_attention.py --bwd-only compares the
backward with cuDNN's (through autograd on both sides).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import bench_ms  # noqa: E402

import torch  # noqa: E402
import txl.ops  # noqa: E402


def main():
    S = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    for D, B, H in ((128, 4, 32), (64, 8, 16)):
        gen = torch.Generator(device="cuda").manual_seed(0)
        q, k, v, do = (torch.randn((B, S, H, D), device="cuda", generator=gen,
                                   dtype=torch.float16) for _ in range(4))
        scale = 1 / math.sqrt(D)
        for causal in (False, True):
            out = torch.empty_like(q)
            lse = torch.empty((B, H, S), device="cuda")

            def fwd():
                txl.ops.flash_attn_forward_into(q, k, v, out, lse, scale,
                                                causal)
            fwd()
            dq, dk, dv = (torch.empty_like(t) for t in (q, k, v))
            flops = 4 * B * H * S * S * D / (2 if causal else 1)
            res = {}
            for tma in (True, False):
                def bwd(tma=tma):
                    txl.ops.flash_attn_backward_into(
                        q, k, v, out, lse, do, dq, dk, dv, scale, causal,
                        dq_tma=tma)
                bwd()
                torch.cuda.synchronize()
                res[tma] = 2.5 * flops / bench_ms(bwd, True) / 1e9
            print(f"D{D} causal={causal}: bwd tma {res[True]:.1f}  red.v2 "
                  f"{res[False]:.1f}  fwd {flops / bench_ms(fwd, True) / 1e9:.1f}"
                  " TFLOP/s", flush=True)


if __name__ == "__main__":
    main()

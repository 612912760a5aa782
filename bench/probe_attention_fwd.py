#!/usr/bin/env python3
"""The FlashAttention forward's tuning knobs timed against each other and
cuDNN in one process: the K/V ring depth (STAGES) and the schedules
(intra-warpgroup overlap, ping-pong), each output checked against cuDNN's
before it is timed.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/probe_attention_fwd.py [--quick]

Compile-time switches of the library (environment variables read when a
kernel is compiled) need one process each, with their own TXL_CACHE_DIR.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import bench_ms  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402
import txl.ops  # noqa: E402

SHAPES = [(4, 32, 4096, 128, False), (4, 32, 4096, 128, True),
          (16, 32, 16384, 128, False), (8, 16, 8192, 64, False)]
SCHEDULES = {"plain": (False, False), "overlap": (True, False),
             "pingpong": (False, True), "both": (True, True)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--stages", default="2,3")
    args = ap.parse_args()
    stages = [int(s) for s in args.stages.split(",")]
    for B, H, S, D, causal in SHAPES[:2] if args.quick else SHAPES:
        gen = torch.Generator(device="cuda").manual_seed(S)
        q, k, v = (torch.randn((B, S, H, D), device="cuda", generator=gen,
                               dtype=torch.float16) for _ in range(3))
        flops = 4 * B * H * S * S * D / (2 if causal else 1)
        qt, kt, vt = (t.transpose(1, 2) for t in (q, k, v))

        def cudnn():
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return F.scaled_dot_product_attention(qt, kt, vt,
                                                      is_causal=causal)
        ref = cudnn().transpose(1, 2)
        line = [f"B{B} H{H} S{S} D{D}{' causal' if causal else ''}:",
                f"cuDNN {flops / bench_ms(cudnn, args.quick) / 1e9:.1f}"]
        out = torch.empty_like(q)
        lse = torch.empty((B, H, S), device="cuda")
        for st in stages:
            for name, (ov, pp) in SCHEDULES.items():
                def fn(ov=ov, pp=pp, st=st):
                    txl.ops.flash_attn_forward_into(
                        q, k, v, out, lse, 1 / math.sqrt(D), causal,
                        overlap=ov, pingpong=pp, tuning={"stages": st})
                try:
                    out.fill_(float("nan"))
                    fn()
                    torch.testing.assert_close(out, ref, atol=2e-2,
                                               rtol=2e-2)
                    tf = flops / bench_ms(fn, args.quick) / 1e9
                    line.append(f"s{st}-{name} {tf:.1f}")
                except Exception as e:  # noqa: BLE001
                    line.append(f"s{st}-{name} FAILED "
                                f"({str(e).splitlines()[0][:80]})")
        print("  ".join(line), flush=True)
        del q, k, v, out, lse, ref
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

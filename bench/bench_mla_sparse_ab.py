#!/usr/bin/env python3
"""Sparse MLA prefill: the schedules of txl.ops' kernels timed against each
other in one process (s_q = s_kv = 16384, h_q = 128, bf16, random top-k
lists), each checked against an fp32 reference on three tokens first.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/bench_mla_sparse_ab.py [--topk 128,2048] \\
        [--schedules half-q2,half,pair] [--quick] [--json F]
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import bench_ms, header  # noqa: E402

import torch  # noqa: E402
import triton  # noqa: E402

import txl  # noqa: E402
from txl.ops import _mla  # noqa: E402


def max_error(out, lse, q, kv, idx, scale):
    worst = 0.0
    Sq = q.shape[0]
    for t in (0, Sq // 2, Sq - 1):
        rows = kv[idx[t, 0].long(), 0].float()
        s = q[t].float() @ rows.T * scale
        want = torch.softmax(s, -1) @ rows[:, :512]
        worst = max(worst, (out[t].float() - want).abs().max().item())
        want_lse = torch.logsumexp(s, -1) / 0.6931471805599453
        worst = max(worst, (lse[t] - want_lse).abs().max().item())
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--topk", default="128,2048")
    ap.add_argument("--schedules", default="half-q2,half,pair")
    ap.add_argument("--sq", type=int, default=16384)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args()
    info = header(torch, triton, txl)
    print(json.dumps(info), flush=True)
    Sq = Skv = args.sq
    H = 128
    rows = []
    for topk in [int(k) for k in args.topk.split(",")]:
        gen = torch.Generator(device="cuda").manual_seed(topk)
        q = (torch.randn((Sq, H, 576), device="cuda", generator=gen) *
             0.3).bfloat16()
        kv = (torch.randn((Skv, 1, 576), device="cuda", generator=gen) *
              0.3).bfloat16()
        idx = torch.randint(0, Skv, (Sq, 1, topk), device="cuda",
                            generator=gen, dtype=torch.int32)
        scale = 576 ** -0.5
        out = torch.empty((Sq, H, 512), device="cuda", dtype=torch.bfloat16)
        ml = torch.empty((Sq, H), device="cuda")
        lse = torch.empty((Sq, H), device="cuda")
        flop = 2 * Sq * H * topk * (576 + 512)
        for sched in args.schedules.split(","):
            def run():
                _mla.flash_mla_sparse_into(q, kv, idx, scale, out, ml, lse,
                                           schedule=sched)
            out.fill_(float("nan"))
            run()
            err = max_error(out, lse, q, kv, idx, scale)
            ms = bench_ms(run, args.quick)
            row = {"topk": topk, "schedule": sched, "s_q": Sq, "h_q": H,
                   "ms": ms, "tflops": flop / ms / 1e9, "max_err": err}
            rows.append(row)
            print(json.dumps(row), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"header": info, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()

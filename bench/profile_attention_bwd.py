#!/usr/bin/env python3
"""Launch the FlashAttention backward a few times for a profiler to look
at (nothing is timed): txl.ops.flash_attn_backward_into at B,H,S,D fp16
with the given schedule, after the forward that makes its O and LSE. E.g.

    ncu --clock-control none -k regex:flash_bwd --launch-skip 1 \\
        --launch-count 1 --section SpeedOfLight --section WarpStateStats \\
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \\
        python3 bench/profile_attention_bwd.py --shape 4,32,8192,128

--pingpong 0/1 picks flash_bwd's schedule (default: the host's for the
head dim). dq is checked against cuDNN's after the launches, so a profile
of a wrong kernel says so.
"""
import argparse
import math

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import txl.ops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="4,32,8192,128")
    ap.add_argument("--causal", type=int, default=0)
    ap.add_argument("--pingpong", type=int, default=-1)
    ap.add_argument("--launches", type=int, default=3)
    args = ap.parse_args()
    B, H, S, D = (int(x) for x in args.shape.split(","))
    causal = bool(args.causal)
    gen = torch.Generator(device="cuda").manual_seed(0)
    q, k, v, do = (torch.randn((B, S, H, D), device="cuda", generator=gen,
                               dtype=torch.float16) for _ in range(4))
    scale = 1 / math.sqrt(D)
    out = torch.empty_like(q)
    lse = torch.empty((B, H, S), device="cuda")
    txl.ops.flash_attn_forward_into(q, k, v, out, lse, scale, causal)
    dq, dk, dv = (torch.empty_like(t) for t in (q, k, v))
    pp = None if args.pingpong < 0 else bool(args.pingpong)
    for _ in range(args.launches):
        txl.ops.flash_attn_backward_into(q, k, v, out, lse, do, dq, dk, dv,
                                         scale, causal, pingpong=pp)
    torch.cuda.synchronize()
    qr = q.detach().clone().requires_grad_()
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        o = F.scaled_dot_product_attention(
            qr.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
            is_causal=causal).transpose(1, 2)
    (want,) = torch.autograd.grad(o, (qr,), do)
    err = (dq.float() - want.float()).abs().max().item()
    print(f"dq vs cuDNN: max |diff| {err:.3g}")
    assert err <= 2e-2 * max(want.float().abs().max().item(), 1.0)


if __name__ == "__main__":
    main()

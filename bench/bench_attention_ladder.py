#!/usr/bin/env python3
"""Attention ladder benchmark: every step of tutorials/attention, the
txl.ops kernel and cuDNN's SDPA, in one process.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/bench_attention_ladder.py [--quick] [--json F]

Shapes [batch, heads, seqlen, head_dim]: B4 H32 S8192 D128, non-causal and
causal (--quick: S4096). Steps 1-5 and txl.ops.flash_attn_func run fp16
q, k, v; step 6 runs the same values rounded to fp8 e4m3 (descales 1),
timed without the host transpose of V (attention_vt on a prepared V^T);
txl.ops fp8 is flash_attn_func on the same fp8 tensors, transpose
included.
cuDNN runs fp16 (torch SDPA, CUDNN_ATTENTION backend).

Every output is computed once and checked against cuDNN's before it is
timed: atol = rtol = 2e-2 for fp16 (as bench_attention.py); for fp8 the
reference is cuDNN on the dequantized (fp8 -> fp16) inputs and the test's
fp8 tolerance applies (atol 6e-2, rtol 2e-2, mean error < 8e-3). A step
whose output is wrong is reported as FAIL and not timed. Times are medians
of triton.testing.do_bench (L2 flushed); TFLOP/s = 4 B H S^2 D / t, halved
for causal.
"""

import argparse
import json
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from _common import REPO, bench_ms, header  # noqa: E402

import torch  # noqa: E402
import triton  # noqa: E402
from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import txl  # noqa: E402
import txl.ops  # noqa: E402

sys.path.insert(0, os.path.join(REPO, "tutorials", "attention"))
import step01_online_softmax  # noqa: E402
import step02_tma_mbarriers  # noqa: E402
import step03_warp_specialized  # noqa: E402
import step04_pingpong  # noqa: E402
import step05_overlap  # noqa: E402
import step06_fp8  # noqa: E402

SHAPES = [(4, 32, 8192, 128, False), (4, 32, 8192, 128, True)]
QUICK = [(4, 32, 4096, 128, False), (4, 32, 4096, 128, True)]
FP16_STEPS = [("1 online softmax", step01_online_softmax),
              ("2 TMA + mbarriers", step02_tma_mbarriers),
              ("3 warp specialized", step03_warp_specialized),
              ("4 ping-pong", step04_pingpong),
              ("5 intra-wg overlap", step05_overlap)]


def cudnn(q, k, v, causal):
    qt, kt, vt = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)

    def fn():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return F.scaled_dot_product_attention(qt, kt, vt,
                                                  is_causal=causal)
    return fn


def checked_tflops(fn, ref, flops, quick, fp8=False):
    """TFLOP/s of fn after checking its output against ref, or the reason
    it was not timed."""
    try:
        got = fn().float()
        if fp8:
            torch.testing.assert_close(got, ref, atol=6e-2, rtol=2e-2)
            err = (got - ref).abs().mean().item()
            assert err < 8e-3, f"mean error {err}"
        else:
            torch.testing.assert_close(got, ref, atol=2e-2, rtol=2e-2)
        del got
    except Exception as e:  # noqa: BLE001
        traceback.print_exc()
        return f"FAIL ({type(e).__name__})"
    return flops / bench_ms(fn, quick) / 1e9


def one_shape(B, H, S, D, causal, quick):
    gen = torch.Generator(device="cuda").manual_seed(S + D)
    q, k, v = (torch.randn((B, S, H, D), device="cuda", generator=gen,
                           dtype=torch.float16) for _ in range(3))
    flops = 4 * B * H * S * S * D / (2 if causal else 1)
    row = {"shape": f"B{B} H{H} S{S} D{D}" + (" causal" if causal else "")}
    base = cudnn(q, k, v, causal)
    ref = base().transpose(1, 2).float()
    row["cuDNN fp16"] = flops / bench_ms(base, quick) / 1e9
    for name, mod in FP16_STEPS:
        out = torch.empty_like(q)
        row[name] = checked_tflops(
            lambda mod=mod, out=out: mod.attention(q, k, v, causal=causal,
                                                   out=out),
            ref, flops, quick)
    row["txl.ops fp16"] = checked_tflops(
        lambda: txl.ops.flash_attn_func(q, k, v, causal=causal), ref, flops,
        quick)
    q8, k8, v8 = (t.to(torch.float8_e4m3fn) for t in (q, k, v))
    ref8 = cudnn(q8.half(), k8.half(), v8.half(), causal)().transpose(1, 2)
    vt8 = step06_fp8.transpose_v(v8)
    out8 = torch.empty(q.shape, device="cuda", dtype=torch.bfloat16)
    row["6 fp8 e4m3"] = checked_tflops(
        lambda: step06_fp8.attention_vt(q8, k8, vt8, causal=causal,
                                        out=out8),
        ref8.float(), flops, quick, fp8=True)
    row["txl.ops fp8"] = checked_tflops(
        lambda: txl.ops.flash_attn_func(q8, k8, v8, causal=causal),
        ref8.float(), flops, quick, fp8=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args()
    info = header(torch, triton, txl)
    print(json.dumps(info))
    rows = []
    for B, H, S, D, causal in (QUICK if args.quick else SHAPES):
        rows.append(one_shape(B, H, S, D, causal, args.quick))
        torch.cuda.empty_cache()
    names = [k for k in rows[0] if k != "shape"]
    print("| kernel (TFLOP/s) | " + " | ".join(r["shape"] for r in rows) +
          " |")
    print("|---|" + "---:|" * len(rows))
    for name in names:
        cells = []
        for r in rows:
            v = r[name]
            cells.append(v if isinstance(v, str) else
                         f"{v:.1f} ({v / r['cuDNN fp16']:.2f}x)")
        print(f"| {name} | " + " | ".join(cells) + " |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"info": info, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Interleaved A/B timing of flagship configs against cuBLAS, one process.

    TXL_LIBRARY=build/lib/libtxl.so PYTHONPATH=python \\
        python3 bench/ab_flagship.py [--rounds 5] [--rep 40]

bench_flagship.py times each config once, one after another, so a few
percent of clock drift between rows can decide which config wins. Here
every round times cuBLAS and each variant back to back and the median
over rounds is reported, as TFLOP/s and (ratio to cuBLAS). Each output is
checked against the fp32 reference once before timing (a WRONG line says
so). Edit VARIANTS to compare other configs: (label, BM, BN, BK, STAGES,
CLUSTER, SPLIT, GROUP_M).
"""

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import bench_flagship as bf  # noqa: E402
import bench_gemm as bg  # noqa: E402

VARIANTS = [("s4 split", 128, 256, 64, 4, 1, 2, 8),
            ("s4 split c2", 128, 256, 64, 4, 2, 2, 8),
            ("s3", 128, 256, 64, 3, 1, 1, 8),
            ("s3 c2", 128, 256, 64, 3, 2, 1, 8)]
SHAPES = [("fp16", 4096, 4096, 4096), ("fp16", 8192, 8192, 8192),
          ("fp16", 8192, 8192, 1024), ("fp16", 16384, 1024, 8192),
          ("bf16", 4096, 4096, 4096), ("bf16", 8192, 8192, 8192)]


def launches(torch, txl, gemm_ws, case, sms):
    runs = {"cuBLAS": lambda: torch.matmul(case.a, case.b, out=case.c)}
    for label, *cfg in VARIANTS:
        bf.GROUP_M = cfg[-1]  # read by Launch (launch_kwargs) below
        launch = bf.Launch(txl, gemm_ws, case, tuple(cfg[:-1]), sms)
        case.c.fill_(float("nan"))
        launch.cached()
        torch.cuda.synchronize()
        if not bg.verify(torch, case.c, case.ref, case.K)[0]:
            print(f"WRONG: {label}", flush=True)
        runs[label] = launch.cached
    return runs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--rep", type=int, default=40,
                   help="do_bench milliseconds per measurement")
    args = p.parse_args()
    libs = bg.import_gpu_libs()
    if libs is None:
        return 1
    torch, triton, txl, _ = libs
    gemm_ws = bf.import_flagship().gemm_ws
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    rows = []
    for shape in SHAPES:
        case = bg.Case(torch, shape)
        runs = launches(torch, txl, gemm_ws, case, sms)
        times = {k: [] for k in runs}
        for _ in range(args.rounds):
            for k, fn in runs.items():
                times[k].append(triton.testing.do_bench(
                    fn, warmup=10, rep=args.rep, return_mode="median"))
        flop = 2 * shape[1] * shape[2] * shape[3]
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append(f"| {bg.shape_label(shape)} | " + " | ".join(
            f"{flop / med[k] / 1e9:.0f} ({med['cuBLAS'] / med[k]:.3f})"
            for k in runs) + " |")
        print(rows[-1], flush=True)
        del case
        torch.cuda.empty_cache()
    print("| shape | " + " | ".join(runs) + " |")
    print("|---" * (len(runs) + 1) + "|")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())

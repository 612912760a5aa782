#!/usr/bin/env python3
"""Launch one GEMM a few times, for a profiler to look at: cuBLAS
(torch.matmul), the flagship gemm_ws at one config, or examples/matmul.py's
plain matmul_kernel compiled by Triton or by txl (bench_gemm.py's config
BLOCK_M,BLOCK_N,BLOCK_K,num_warps; num_stages from --num-stages). Nothing
is timed here; run it under Nsight Compute, e.g.

    ncu --clock-control none -k regex:'gemm|nvjet|sm90|matmul' \\
        --launch-skip 2 --launch-count 1 --section SpeedOfLight \\
        --section WarpStateStats python3 bench/profile_gemm.py \\
        --which flagship --shape 4096,4096,4096 --config 128,256,64,4,1,2

(--clock-control none: the card's clocks are left as they are). The
output is checked against an fp32 reference after the launches, so a
profile of a wrong kernel says so.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
import bench_flagship as bf  # noqa: E402
import bench_gemm as bg  # noqa: E402


def ints(text):
    return tuple(int(v) for v in text.split(","))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--which", choices=("cublas", "flagship", "triton", "txl"),
                   required=True)
    p.add_argument("--shape", type=ints, default=(4096, 4096, 4096),
                   help="M,N,K")
    p.add_argument("--dtype", default="fp16", choices=("fp16", "bf16"))
    p.add_argument("--config", type=ints, default=bf.CONFIGS[0],
                   help="flagship: BM,BN,BK,STAGES,CLUSTER,SPLIT; triton/txl: "
                   "BLOCK_M,BLOCK_N,BLOCK_K,num_warps")
    p.add_argument("--num-stages", type=int, default=bg.NUM_STAGES,
                   help="triton/txl: the K loop's pipeline depth")
    p.add_argument("--launches", type=int, default=3)
    args = p.parse_args()
    libs = bg.import_gpu_libs()
    if libs is None:
        return 1
    torch, _, txl, matmul = libs
    case = bg.Case(torch, (args.dtype, *args.shape))
    if args.which == "cublas":
        def run():
            torch.matmul(case.a, case.b, out=case.c)
    elif args.which in ("triton", "txl"):
        bg.NUM_STAGES = args.num_stages
        kernel = matmul.matmul_kernel
        if args.which == "txl":
            kernel = txl.jit(kernel)
        cfg = args.config if len(args.config) == 4 else bg.CONFIGS[1]
        grid, kwargs = case.grid(cfg), bg.launch_kwargs(cfg)

        def run():
            kernel[grid](*case.kernel_args(), **kwargs)
    else:
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        run = bf.Launch(txl, bf.import_flagship().gemm_ws, case,
                        args.config, sms).cached
    case.c.fill_(float("nan"))
    for _ in range(args.launches):
        run()
    torch.cuda.synchronize()
    ok, max_err, _ = bg.verify(torch, case.c, case.ref, case.K)
    print(f"{args.which} {args.dtype} {args.shape}: output "
          f"{'correct' if ok else 'WRONG'} (max abs error {max_err:.3g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# The main job: compiles every example kernel for sm_80, sm_90a and sm_100a
# and the Hopper tutorials (GEMM ladder, flagship) for sm_90a with txlc; with
# a GPU it runs the GPU tests and the benchmarks, without one it shows what
# was compiled and where the artifacts are.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/bin/txlc ] || { cmake -S . -B build -G Ninja >/dev/null && ninja -C build txlc; }
run() { # file kernel signature [options]
  local file=$1 kernel=$2 sig=$3; shift 3
  for target in sm_80 sm_90a sm_100a; do
    build/bin/txlc "examples/$file" --kernel-name "$kernel" --signature "$sig" \
      --target "$target" --out-dir "out/$target" "$@"
  done
}
run vector_add.py add_kernel "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024"
run fused_softmax.py softmax_kernel "*fp32:16, *fp32:16, i32:16, i32:16, i32, i32, 1024, 1"
run argmax_rows.py row_argmax_kernel "*fp32:16, *i32:16, *fp32:16, i32, i32:16, 1024"
run transpose_2d.py transpose_kernel "*fp32:16, *fp32:16, i32, i32, i32:16, i32:16, 64, 64"
run transpose_2d.py copy_2d_kernel "*fp16:16, *fp16:16, i32, i32, i32:16, i32:16, 64, 128"
run layer_norm.py _layer_norm_fwd "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32, fp32, 1024"
run matmul.py matmul_kernel "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1, 128, 128, 32, 8" --num-warps 8
# Hopper-only kernels (wgmma, mbarriers, TMA, warpgroup roles): sm_90a.
hopper() { # dir/file kernel signature [options]
  local file=$1 kernel=$2 sig=$3; shift 3
  build/bin/txlc "$file" --kernel-name "$kernel" --signature "$sig" \
    --target sm_90a --out-dir out/sm_90a --num-warps 4 "$@"
}
T="tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 64]>, tensordesc<fp16[128, 128]>"
hopper examples/warpgroup_handoff.py warpgroup_handoff "*fp32:16, *fp32:16, i32, 1024" --num-warpgroups 2
hopper tutorials/gemm/step01_one_tile.py gemm_step01 "*fp16:16, *fp16:16, *fp16:16, 128, 128, 64"
hopper tutorials/gemm/step02_k_loop.py gemm_step02 "*fp16:16, *fp16:16, *fp16:16, i32:16, 128, 128, 64"
hopper tutorials/gemm/step03_grid.py gemm_step03 "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, 128, 128, 64"
hopper tutorials/gemm/step04_tma.py gemm_step04 "$T, i32, 128, 128, 64"
hopper tutorials/gemm/step05_pipeline.py gemm_step05 "$T, i32, 128, 128, 64"
hopper tutorials/gemm/step06_persistent.py gemm_step06 "$T, i32, i32, i32, i32, 128, 128, 64, 8"
hopper tutorials/gemm/step07_warp_specialized.py gemm_step07 "$T, i32, i32, i32, i32, 128, 128, 64, 8" --num-warpgroups 3
hopper tutorials/gemm/step08_deep_pipeline.py gemm_step08 "$T, i32, i32, i32, i32, 128, 128, 64, 8, 4" --num-warpgroups 3
hopper tutorials/gemm/step09_cluster_multicast.py gemm_step09 "tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[128, 128]>, i32, i32, i32, i32, 128, 128, 64, 8, 4" --num-warpgroups 3 --num-ctas 2
hopper tutorials/gemm/step10_two_consumers.py gemm_step10 "tensordesc<fp16[128, 64]>, tensordesc<fp16[256, 64]>, tensordesc<fp16[64, 256]>, i32, i32, i32, i32, 128, 256, 64, 8, 3" --num-warpgroups 3
hopper tutorials/gemm/flagship.py gemm_ws "tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 128]>, i32, i32, i32, i32, 128, 256, 64, 4, 8, 1, False, 0, 2" --num-warpgroups 3
hopper tutorials/gemm/flagship.py gemm_ws "tensordesc<fp8e4nv[128, 128]>, tensordesc<fp8e4nv[64, 128]>, tensordesc<fp16[64, 128]>, i32, i32, i32, i32, 128, 128, 128, 4, 8, 2, True, 4" --num-warpgroups 3 --num-ctas 2
hopper tutorials/gemm/flagship.py gemm_pingpong "tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 256]>, tensordesc<fp16[64, 256]>, i32, i32, i32, i32, 64, 256, 64, 4, 8" --num-warpgroups 3
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >/dev/null 2>&1; then
  # Run and time them: correctness first, then the side-by-side benchmarks
  # (Triton, cuBLAS and copy bandwidth in the same process; needs torch and
  # triton).
  export TXL_LIBRARY=${TXL_LIBRARY:-$PWD/build/lib/libtxl.so} PYTHONPATH=$PWD/python
  python3 -m pytest test/gpu -q -x
  python3 bench/bench_foundation.py --quick
  python3 bench/bench_gemm.py --quick
  python3 bench/bench_ladder.py --quick
  python3 bench/bench_flagship_fp8.py --quick
  python3 bench/bench_flagship.py --quick
else
  echo "no GPU: artifacts are under out/<target>/ (txlir, txlgir, llir, ptx, cubin, json)"
fi

#!/usr/bin/env bash
# The main job: compiles every example kernel for sm_80, sm_90a and sm_100a
# with txlc and shows what was compiled and where the artifacts are.
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
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >/dev/null 2>&1; then
  echo "GPU present: run and time with: TXL_LIBRARY=build/lib/libtxl.so python3 -m pytest test/gpu"
else
  echo "no GPU: artifacts are under out/<target>/ (txlir, txlgir, llir, ptx, cubin, json)"
fi

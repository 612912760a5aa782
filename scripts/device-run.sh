#!/usr/bin/env bash
# Runs on the GPU machine from the repo root with the bundle made by
# scripts/make-device-bundle.sh: the GPU correctness suite (real compiler,
# then the runtime over the stand-in compiler), then the benchmarks
# (foundation, GEMM, ladder, fp8 flagship, then the flagship GEMM). Logs go
# to $OUT (or out/device); the flagship benchmark's table is printed last.
#   bash scripts/device-run.sh [--quick] [pytest -k expression]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device}
mkdir -p "$out"
quick=""
if [ "${1:-}" = "--quick" ]; then quick="--quick"; shift; fi
select=${1:-}
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
export TXL_LIBDEVICE=$PWD/.bundle/libdevice.10.bc
export TXL_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'

# SIGINT at the time limit: pytest stops and still writes its junit file
# and the durations; faulthandler prints the stack of a test that runs past
# 120 s (a hang shows where it waits).
run_tests() { # library name
  TXL_LIBRARY=$PWD/.bundle/lib/$1 timeout -s INT -k 30 400 python3 -m pytest \
    test/gpu -q --maxfail=30 -p no:cacheprovider ${select:+-k "$select"} \
    --durations=30 -o faulthandler_timeout=120 \
    --junitxml="$out/$2.xml" 2>&1 | tee "$out/$2.log" | tail -40
}
run_tests libtxl.so gpu-tests
run_tests libtxl_fake.so runtime-tests
# AOT-compiled kernels launched from C through the runtime-only libtxlrt.
if [ -x .bundle/aot/aot_example ]; then
  LD_LIBRARY_PATH=$PWD/.bundle/lib .bundle/aot/aot_example 2>&1 |
    tee "$out/aot-example.log"
fi
if [ -f bench/bench_foundation.py ]; then
  TXL_LIBRARY=$PWD/.bundle/lib/libtxl.so timeout 400 python3 \
    bench/bench_foundation.py $quick --json "$out/bench.json" 2>&1 |
    tee "$out/bench.log"
fi
# Its table (cuBLAS / Triton / txl TFLOP/s on examples/matmul.py) comes
# just before the flagship's.
if [ -f bench/bench_gemm.py ]; then
  TXL_LIBRARY=$PWD/.bundle/lib/libtxl.so timeout 300 python3 \
    bench/bench_gemm.py $quick --json "$out/bench_gemm.json" 2>&1 |
    tee "$out/bench_gemm.log"
fi
# The GEMM ladder (every tutorial step vs cuBLAS) and the fp8 flagship (vs
# cuBLAS fp8), each checked before it is timed.
for bench in bench_ladder bench_flagship_fp8; do
  if [ -f bench/$bench.py ]; then
    TXL_LIBRARY=$PWD/.bundle/lib/libtxl.so timeout 300 python3 \
      bench/$bench.py $quick --json "$out/$bench.json" 2>&1 |
      tee "$out/$bench.log"
  fi
done
# Last, so that its table (cuBLAS / Triton / flagship TFLOP/s and PASS/MISS
# against >= 1.03x cuBLAS) ends the output. Every flagship config is tried.
if [ -f bench/bench_flagship.py ]; then
  TXL_LIBRARY=$PWD/.bundle/lib/libtxl.so timeout 300 python3 \
    bench/bench_flagship.py $quick --configs \
    --json "$out/bench_flagship.json" 2>&1 | tee "$out/bench_flagship.log"
fi

#!/usr/bin/env bash
# On the GPU machine, from the repo root: installs the wheel carried in
# .xfer/ (scripts/make-device-wheel.sh made it here) with pip --no-deps and
# runs the GPU suite against the installed package -- no PYTHONPATH, no
# TXL_LIBRARY -- then the AOT example over the wheel's libtxlrt, then any
# extra command given (e.g. a benchmark). Logs go to $OUT.
#   bash scripts/device-wheel-run.sh [-k EXPR] [-- extra command ...]
# Environment: GPU_TESTS (paths to run, default test/gpu), GPU_TEST_TIMEOUT
# (seconds, default 480), GPU_TEST_JOBS (pytest-xdist workers sharing the
# one GPU, used when xdist is installed; default 1).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/device}
mkdir -p "$out"
select=""
if [ "${1:-}" = "-k" ]; then select=$2; shift 2; fi
[ "${1:-}" = "--" ] && shift
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
python3 -m pip install -q --no-deps --force-reinstall .xfer/txl-*.whl 2>&1 | grep -v "WARNING: Running pip" | tail -3
site=$(cd /tmp && python3 -c 'import os, txl; print(os.path.dirname(txl.__file__))')
echo "installed: $site ($(cd /tmp && python3 -c 'import txl; print(txl.version())'))"
export PYTHONUNBUFFERED=1 TXL_TEST_INSTALLED=1 TXL_CACHE_DIR=$(mktemp -d)
[ -f .xfer/libdevice.10.bc ] && export TXL_LIBDEVICE=$PWD/.xfer/libdevice.10.bc
unset PYTHONPATH TXL_LIBRARY
jobs=""
if [ "${GPU_TEST_JOBS:-1}" -gt 1 ] && python3 -c 'import xdist' 2>/dev/null; then
  jobs="-n $GPU_TEST_JOBS"
fi
# SIGINT at the limit keeps the junit file and the durations (see
# device-run.sh); faulthandler shows where a test past 120 s waits.
timeout -s INT -k 30 "${GPU_TEST_TIMEOUT:-480}" python3 -m pytest \
  ${GPU_TESTS:-test/gpu} $jobs -q -p no:cacheprovider --maxfail=50 \
  --durations=30 -o faulthandler_timeout=120 \
  ${select:+-k "$select"} --junitxml="$out/gpu-tests.xml" 2>&1 |
  tee "$out/gpu-tests.log" | tail -25
if [ -x .xfer/aot_example ]; then
  LD_LIBRARY_PATH=$site/_lib .xfer/aot_example 2>&1 | tee "$out/aot-example.log"
fi
if [ $# -gt 0 ]; then "$@" 2>&1 | tee "$out/extra.log"; fi

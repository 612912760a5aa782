#!/usr/bin/env bash
# Runs Triton's own language tests (test_core.py) through txl's drop-in
# switch on a GPU machine and prints pass/fail counts by failure class.
#
#   bash bench/run_triton_test_core.sh [pytest args...]   e.g. -k "test_bin_op"
#
# test_core.py is not vendored here. It is taken from, in order:
#   $TRITON_TESTS (a directory holding test_core.py and Triton's conftest.py),
#   the installed triton package's own tests, if it ships them,
#   shared/triton-tests/ (a copy of triton's python/test/unit/language/
#   test_core.py and python/test/conftest.py that the lead carries; their
#   triton version should match the installed one: `python3 -c "import
#   triton; print(triton.__version__)"`).
# The files are copied to a scratch directory and run from there.
# Environment: TXL_LIBRARY (default .bundle/lib/libtxl.so, else
# build/lib/libtxl.so), OUT (logs and junit xml; default out/test_core),
# TEST_CORE_TIMEOUT (seconds for the whole pytest run, default 540; at the
# limit pytest is interrupted and reports what ran), TEST_CORE_JOBS
# (pytest-xdist workers sharing the GPU, default 16), PYTEST_SHARD (i/n:
# run the i-th of n disjoint shards of the file, bench/pytest_shard.py; the
# whole file is too long for one device call).
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=${OUT:-out/test_core}
mkdir -p "$out"
out=$(cd "$out" && pwd)   # absolute: pytest runs in a scratch directory

find_tests() {
  if [ -n "${TRITON_TESTS:-}" ] && [ -f "$TRITON_TESTS/test_core.py" ]; then
    echo "$TRITON_TESTS"; return
  fi
  local pkg
  pkg=$(python3 -c 'import os, triton; print(os.path.dirname(triton.__file__))' 2>/dev/null) || pkg=""
  for d in "$pkg/../test/unit/language" "$pkg/test/unit/language" \
           "$repo/shared/triton-tests"; do
    if [ -f "$d/test_core.py" ]; then echo "$d"; return; fi
  done
}
src=$(find_tests)
if [ -z "$src" ]; then
  echo "run_triton_test_core: no test_core.py found: set TRITON_TESTS or put" \
       "triton's python/test/unit/language/test_core.py and" \
       "python/test/conftest.py under shared/triton-tests/" >&2
  exit 2
fi
work=$(mktemp -d)
cp "$src/test_core.py" "$work/"
for conf in "$src/conftest.py" "$src/../conftest.py" "$src/../../conftest.py"; do
  if [ -f "$conf" ] && [ ! -f "$work/conftest.py" ]; then cp "$conf" "$work/"; fi
done
echo "test_core.py from $src ($(md5sum < "$src/test_core.py" | cut -c1-12))"

lib=${TXL_LIBRARY:-}
if [ -z "$lib" ]; then
  for l in "$repo/.bundle/lib/libtxl.so" "$repo/build/lib/libtxl.so"; do
    if [ -f "$l" ]; then lib=$l; break; fi
  done
fi
if [ -f "$repo/.bundle/libdevice.10.bc" ] && [ -z "${TXL_LIBDEVICE:-}" ]; then
  export TXL_LIBDEVICE=$repo/.bundle/libdevice.10.bc
fi
export TXL_LIBRARY=$lib TXL_AS_TRITON=1 PYTHONUNBUFFERED=1
export PYTHONPATH=$repo/python:$repo/python/txl/compat_site:$repo/bench${PYTHONPATH:+:$PYTHONPATH}
export TXL_CACHE_DIR=${TXL_CACHE_DIR:-$(mktemp -d)}
python3 -c 'import torch, triton, txl; print("torch", torch.__version__, "triton", triton.__version__, "txl switch on:", txl.triton_compat.is_enabled())'

xdist=""
if python3 -c 'import xdist' 2>/dev/null; then xdist="-n ${TEST_CORE_JOBS:-16}"; fi
# SIGINT at the limit: pytest stops and still writes the junit file.
(cd "$work" && timeout -s INT -k 30 "${TEST_CORE_TIMEOUT:-540}" python3 -m pytest test_core.py \
   -q -p no:cacheprovider -p pytest_shard $xdist --junitxml="$out/junit.xml" \
   -o junit_family=xunit1 "$@" > "$out/pytest.log" 2>&1)
echo "pytest exit status $? (2 or 124: interrupted at the time limit; the junit file lacks the tests not reached)"
tail -3 "$out/pytest.log"
python3 bench/triton_test_core_summary.py "$out/junit.xml"
# Compressed, so that a device run's $OUT can bring them back.
gzip -f "$out/junit.xml" "$out/pytest.log" 2>/dev/null

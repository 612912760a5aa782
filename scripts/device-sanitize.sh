#!/usr/bin/env bash
# Runs chosen GPU tests under compute-sanitizer's memcheck, racecheck and
# synccheck (on the GPU machine, from the repo root, with the bundle made by
# scripts/make-device-bundle.sh) and prints one summary line per tool.
# racecheck is slow, so a pytest -k selection is required.
#   bash scripts/device-sanitize.sh -k "flagship and 128" [--tools memcheck,racecheck,synccheck]
# Logs: $OUT (or out/sanitize)/<tool>.log. Exit status: non-zero when a
# tool reported an error or the tests failed under it.
set -uo pipefail
cd "$(dirname "$0")/.."
select="" tools="memcheck,racecheck,synccheck"
while [ $# -gt 0 ]; do
  case "$1" in
    -k) select=$2; shift 2 ;;
    --tools) tools=$2; shift 2 ;;
    *) echo "usage: $0 -k EXPR [--tools memcheck,racecheck,synccheck]" >&2; exit 2 ;;
  esac
done
[ -n "$select" ] || { echo "$0: -k EXPR is required (racecheck is slow)" >&2; exit 2; }
out=${OUT:-out/sanitize}
mkdir -p "$out"
export PYTHONPATH=$PWD/python PYTHONUNBUFFERED=1
export TXL_LIBRARY=${TXL_LIBRARY:-$PWD/.bundle/lib/libtxl.so}
export TXL_LIBDEVICE=${TXL_LIBDEVICE:-$PWD/.bundle/libdevice.10.bc}
export TXL_CACHE_DIR=${TXL_CACHE_DIR:-$(mktemp -d)}
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
status=0 summary=""
for tool in ${tools//,/ }; do
  "$sanitizer" --tool "$tool" --error-exitcode 99 --print-limit 20 \
    python3 -m pytest test/gpu -q -p no:cacheprovider -k "$select" \
    > "$out/$tool.log" 2>&1
  rc=$?
  # memcheck/synccheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK
  # SUMMARY: H hazards displayed (N errors, W warnings)".
  errors=$(grep -Eo 'ERROR SUMMARY: [0-9]+|\([0-9]+ errors' "$out/$tool.log" |
    grep -Eo '[0-9]+' | awk '{s+=$1} END {print s+0}')
  tests=$(grep -E '[0-9]+ (passed|failed)' "$out/$tool.log" | tail -1)
  verdict=PASS
  if [ "$rc" -ne 0 ] || [ "$errors" -ne 0 ]; then verdict=FAIL; status=1; fi
  summary+=$(printf '%-10s %s  sanitizer errors: %s  tests: %s  (exit %s)' \
    "$tool" "$verdict" "$errors" "${tests:-none}" "$rc")$'\n'
done
printf '\ncompute-sanitizer summary (-k "%s"):\n%s' "$select" "$summary"
exit $status

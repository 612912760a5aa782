#!/usr/bin/env bash
# The kernel viewer (txlc --html) in a real headless browser: compile a
# kernel with SASS, open the page with #selftest (the page clicks its own
# source lines and listing rows and records the outcome on <body>), read
# the DOM back, and take a screenshot.
#   check_viewer.sh TXLC REPO OUTDIR
# Exit 77 (skipped) without chromium, unless TXL_REQUIRE_BROWSER=1 (CI).
set -euo pipefail
txlc=$1 repo=$2 out=$3
browser=$(command -v chromium-headless-shell || command -v chromium || true)
if [ -z "$browser" ]; then
  echo "no chromium-headless-shell or chromium"
  [ "${TXL_REQUIRE_BROWSER:-0}" = 1 ] && exit 1 || exit 77
fi
# nvdisasm: $TXL_NVDISASM, the CUDA toolkit, or the pip wheel
# (nvidia-cuda-nvdisasm, in scripts/requirements.txt).
if [ -z "${TXL_NVDISASM:-}" ] && ! command -v nvdisasm >/dev/null &&
   [ ! -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm" ]; then
  found=$(python3 - <<'PY'
import glob, os
try:
    import nvidia
    for root in nvidia.__path__:
        for p in glob.glob(os.path.join(root, "cu*", "bin", "nvdisasm")) + \
                 glob.glob(os.path.join(root, "cuda_nvdisasm", "bin", "nvdisasm")):
            print(p); break
except ImportError:
    pass
PY
)
  [ -n "$found" ] && export TXL_NVDISASM=$found
fi
rm -rf "$out" && mkdir -p "$out"
"$txlc" "$repo/examples/matmul.py" --kernel-name matmul_kernel --num-warps 8 \
  --signature "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,i32:16,128,128,64,8" \
  --out-dir "$out" --html "$out/viewer.html" > "$out/txlc.log" 2>&1 ||
  { cat "$out/txlc.log"; exit 1; }
flags=(--no-sandbox --disable-gpu --window-size=1400,900)
timeout 120 "$browser" "${flags[@]}" --dump-dom \
  "file://$out/viewer.html#selftest" > "$out/dom.html" 2> "$out/browser.log"
verdict=$(grep -o 'data-selftest="[^"]*"' "$out/dom.html" || true)
echo "$verdict"
case "$verdict" in
  *'data-selftest="pass'*) ;;
  *) echo "viewer self-test did not pass"; tail -5 "$out/browser.log"; exit 1 ;;
esac
# Every listing marked rows of the clicked line (&quot;-quoted JSON).
for listing in txlir txlgir llir ptx; do
  echo "$verdict" | grep -Eq "&quot;$listing&quot;:[1-9]" ||
    { echo "no $listing rows for the clicked line"; exit 1; }
done
if [ -n "${TXL_NVDISASM:-}" ] || command -v nvdisasm >/dev/null; then
  echo "$verdict" | grep -Eq "&quot;sass&quot;:[1-9]" ||
    { echo "no SASS rows for the clicked line"; exit 1; }
  grep -q 'HGMMA' "$out/viewer.html" || { echo "no HGMMA in the SASS"; exit 1; }
fi
timeout 120 "$browser" "${flags[@]}" --screenshot="$out/viewer.png" \
  "file://$out/viewer.html#selftest" >> "$out/browser.log" 2>&1
python3 - "$out/viewer.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert (width, height) == (1400, 900), (width, height)
assert len(data) > 20000, f"suspiciously small screenshot ({len(data)} B)"
print(f"screenshot {width}x{height}, {len(data)} bytes")
PY

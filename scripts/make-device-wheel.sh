#!/usr/bin/env bash
# Builds the wheel and the AOT example here and puts them in .xfer/ (git-
# ignored: add `/.xfer/` to .git/info/exclude) for a device run that carries
# .xfer and runs scripts/device-wheel-run.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR=$PWD CC=${CC:-cc} CXX=${CXX:-c++}
rm -rf .xfer && mkdir -p .xfer
python3 -m pip wheel . --no-deps --no-build-isolation -q -w .xfer
ninja -C build txlc txlrt >/dev/null
cmake -S examples/aot -B build/aot-example -G Ninja -DTXL_BUILD_DIR="$PWD/build" >/dev/null
cmake --build build/aot-example >/dev/null
cp build/aot-example/aot_example .xfer/
libdevice=${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc
[ -f "$libdevice" ] && cp "$libdevice" .xfer/
du -sh .xfer/*

#!/usr/bin/env bash
# Builds what a GPU machine needs to run txl without building it there:
# .bundle/lib/libtxl.so (LLVM/MLIR linked in, stripped to fit a 64 MiB
# transfer), the stand-in libtxl_fake.so for the runtime tests, and
# libdevice. The bundle is git-ignored; scripts/device-run.sh uses it.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || cmake -S . -B build -G Ninja >/dev/null
ninja -C build txl txl_fake txlrt txlc
mkdir -p .bundle/lib .bundle/aot
strip --strip-unneeded -o .bundle/lib/libtxl.so build/lib/libtxl.so
strip --strip-unneeded -o .bundle/lib/libtxl_fake.so build/lib/libtxl_fake.so
strip --strip-unneeded -o .bundle/lib/libtxlrt.so build/lib/libtxlrt.so
# The AOT example (examples/aot), built here against libtxlrt; the GPU
# machine runs it with .bundle/lib on the library path.
cmake -S examples/aot -B build/aot-example -G Ninja \
  -DTXL_BUILD_DIR="$PWD/build" >/dev/null
cmake --build build/aot-example >/dev/null
cp build/aot-example/aot_example .bundle/aot/
libdevice=${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc
[ -f "$libdevice" ] && cp "$libdevice" .bundle/
# The commit the library was built from (plus "+dirty" for local changes):
# the GPU machine's copy of the tree may carry a stale .git, so benchmark
# headers read this instead.
{ git rev-parse --short HEAD 2>/dev/null || echo "?"; } | tr -d '\n' > .bundle/GIT_HEAD
git diff --quiet HEAD 2>/dev/null || printf '+dirty' >> .bundle/GIT_HEAD
du -sh .bundle

#!/usr/bin/env bash
# Builds txl and runs every CPU test (gtest, lit, bad-input corpus, pytest),
# then builds the pip wheel and checks it from a fresh virtual environment.
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache keys on paths relative to the checkout, so the wheel build below
# (another build directory) reuses this build's objects.
export CCACHE_BASEDIR=$PWD
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > build.log 2>&1 || { cat build.log; exit 1; }
ninja -C build -j"$(nproc)"
(cd build && ctest --output-on-failure -j"$(nproc)")
python3 -m pytest -q test/python
bash scripts/test-wheel.sh

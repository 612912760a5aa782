#!/usr/bin/env bash
# Builds txl and runs every CPU test (gtest, lit, bad-input corpus, pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > build.log 2>&1 || { cat build.log; exit 1; }
ninja -C build -j"$(nproc)"
(cd build && ctest --output-on-failure -j"$(nproc)")
python3 -m pytest -q test/python

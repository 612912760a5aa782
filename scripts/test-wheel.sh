#!/usr/bin/env bash
# Builds the pip wheel (pyproject.toml: scikit-build-core over the same
# CMake project; ccache serves the objects the main build compiled),
# installs it into a fresh virtual environment with no access to the source
# tree, and checks that the package, its library and its tools work from
# there. Called by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR=$PWD
# The compiler the main build used (CMake's default), not Python's: ccache
# hashes the compiler too.
export CC=${CC:-cc} CXX=${CXX:-c++}
rm -rf build/dist build/wheel-venv
python3 -m pip wheel . --no-deps --no-build-isolation -q -w build/dist
wheel=$(ls build/dist/txl-*.whl)
echo "wheel: $wheel ($(du -h "$wheel" | cut -f1))"
python3 -m venv build/wheel-venv
build/wheel-venv/bin/python -m pip install -q --no-deps "$wheel"
repo=$PWD
cd "$(mktemp -d)" # nothing of the source tree on the path
env -u PYTHONPATH -u TXL_LIBRARY "$repo/build/wheel-venv/bin/python" - <<'PY'
import os, txl
assert "site-packages" in txl.__file__, txl.__file__
version = txl.version()
print("import txl:", txl.__version__, "|", version)
assert txl.__version__ in version, (txl.__version__, version)
lib = os.path.join(os.path.dirname(txl.__file__), "_lib")
assert sorted(f for f in os.listdir(lib) if f.endswith(".so")) == \
    ["libtxl.so", "libtxlrt.so"], os.listdir(lib)
PY
"$repo/build/wheel-venv/bin/txlc" --version
"$repo/build/wheel-venv/bin/txlc" "$repo/examples/vector_add.py" \
  --kernel-name add_kernel --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" \
  --out-dir out
"$repo/build/wheel-venv/bin/txl-opt" --version | head -2
echo "wheel: PASS"

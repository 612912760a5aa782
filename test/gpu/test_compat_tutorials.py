"""Triton's tutorials, unchanged (test/compat/triton/), run as scripts
through txl's drop-in switch: their own correctness checks (asserts, the
"Triton and Torch match" verdicts, printed maximum differences) must hold.
Benchmarks are skipped (TXL_COMPAT_SKIP_BENCH=1). Needs the real compiler
(a tutorial run over the stand-in compiler would fail to compile)."""

import os
import re
import subprocess
import sys

import pytest
import torch  # noqa: F401  (the conftest skips this module without CUDA)
from conftest import real_compiler

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TUTORIALS = os.path.join(REPO, "test", "compat", "triton")

# tutorial -> a check of its output beyond the exit status
CHECKS = {
    "01-vector-add.py": "max_difference",
    "02-fused-softmax.py": None,           # asserts allclose itself
    "03-matrix-multiplication.py": "match_verdicts",
    "04-low-memory-dropout.py": None,      # prints tables (no check of its own)
    "05-layer-norm.py": None,              # test_layer_norm asserts
    "07-extern-functions.py": "max_difference",
}


def find_libdevice():
    """A libdevice.10.bc: txl's own setting, the CUDA toolkit's, or the one
    Triton ships."""
    candidates = [os.environ.get("TXL_LIBDEVICE"),
                  "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"]
    try:
        import triton
        candidates.append(os.path.join(os.path.dirname(triton.__file__),
                                       "backends", "nvidia", "lib",
                                       "libdevice.10.bc"))
    except ImportError:
        pass
    return next((p for p in candidates if p and os.path.isfile(p)), None)


def tutorial_path(name, tmp_path):
    """Where to run the tutorial from. 07 passes extern_libs with a
    libdevice at ../../third_party/nvidia/backend/lib/ (its place in
    Triton's tree): it runs from a copy of that layout."""
    source = os.path.join(TUTORIALS, name)
    if name != "07-extern-functions.py":
        return source
    libdevice = find_libdevice()
    if libdevice is None:
        pytest.skip("no libdevice.10.bc for extern_libs")
    lib = tmp_path / "tree" / "third_party" / "nvidia" / "backend" / "lib"
    lib.mkdir(parents=True)
    os.symlink(libdevice, lib / "libdevice.10.bc")
    tutorials = tmp_path / "tree" / "python" / "tutorials"
    tutorials.mkdir(parents=True)
    with open(source) as f, open(tutorials / name, "w") as out:
        out.write(f.read())
    return str(tutorials / name)


def run_tutorial(name, tmp_path):
    script = tutorial_path(name, tmp_path)
    env = dict(os.environ)
    if os.environ.get("TXL_TEST_INSTALLED"):
        # The installed package (and its library), not the source tree's.
        import txl
        paths = [os.path.join(os.path.dirname(txl.__file__), "compat_site")]
    else:
        paths = [os.path.join(REPO, "python"),
                 os.path.join(REPO, "python", "txl", "compat_site")]
    env.update(TXL_AS_TRITON="1", TXL_COMPAT_SKIP_BENCH="1",
               PYTHONPATH=os.pathsep.join(paths))
    return subprocess.run([sys.executable, script],
                          capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=600)


@real_compiler
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_tutorial_checks_pass_through_txl(name, tmp_path):
    result = run_tutorial(name, tmp_path)
    log = result.stdout + result.stderr
    assert result.returncode == 0, log[-6000:]
    check = CHECKS[name]
    if check == "max_difference":
        diffs = re.findall(r"maximum difference between torch and triton is "
                           r"(\S+)", log)
        assert diffs, log[-3000:]
        assert all(float(d) <= 1e-6 for d in diffs), diffs
    elif check == "match_verdicts":
        assert "✅ Triton and Torch match" in log, log[-3000:]
        assert "❌" not in log, log[-3000:]

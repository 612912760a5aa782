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


def run_tutorial(name, tmp_path):
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
    return subprocess.run([sys.executable, os.path.join(TUTORIALS, name)],
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

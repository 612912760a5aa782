"""TXL_DEBUG_SYNC: bounded mbarrier waits. A deadlocked kernel fails its
launch within the bound and the error names the source line and column of
the wait, the block and the thread; kernels whose waits complete run
normally. The deadlock destroys the CUDA context, so each case runs in a
subprocess of its own."""

import os
import subprocess
import sys
import textwrap

import pytest
import torch

from conftest import REPO, real_compiler

pytestmark = real_compiler

HERE = os.path.dirname(os.path.abspath(__file__))


def run(body, timeout_ms=300):
    env = dict(os.environ, TXL_DEBUG_SYNC="1",
               TXL_DEBUG_SYNC_TIMEOUT_MS=str(timeout_ms),
               TXL_ALWAYS_COMPILE="1")
    # From an installed wheel the package (and its library) is the
    # installed one, not the source tree's.
    paths = [] if os.environ.get("TXL_TEST_INSTALLED") else [
        os.path.join(REPO, "python")]
    env["PYTHONPATH"] = os.pathsep.join(
        paths + [HERE, env.get("PYTHONPATH", "")])
    script = "import torch, txl, txl_kernels_debug as k\n" + \
        textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", script], env=env,
                          capture_output=True, text=True, timeout=120)


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


def test_deadlock_is_reported_with_its_source_line():
    if not hopper():
        pytest.skip("mbarrier parity waits need sm_90")
    r = run("""
        x = torch.zeros(128, device="cuda")
        try:
            k.never_arrives[(2,)](x)
        except txl.TxlError as e:
            print("REPORT:", e)
        """)
    out = r.stdout + r.stderr
    assert "REPORT:" in out, out
    # txl_kernels_debug.py line 12, column 5: the txl.mbar_wait call.
    assert "txl_kernels_debug.py:12:5: error: txl.mbar_wait timed out" in out
    assert "in kernel 'never_arrives'" in out
    assert "phase parity 0" in out and "block (" in out


def test_completing_waits_run_normally():
    if not hopper():
        pytest.skip("mbarrier parity waits need sm_90")
    r = run("""
        x = torch.full((128,), float("nan"), device="cuda")
        k.arrives[(1,)](x, BLOCK=128)
        torch.cuda.synchronize()
        assert torch.equal(x.cpu(), torch.arange(128, dtype=torch.float32))
        print("OK")
        """)
    assert "OK" in r.stdout, r.stdout + r.stderr

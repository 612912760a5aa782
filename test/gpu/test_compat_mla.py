"""The TXL project's MLA kernels, unchanged (test/compat/txl/), run on the GPU
through txl's Triton switch with their files' own host launchers, against
float32 references with NaN-poisoned outputs (compat_mla_driver.py, in a
subprocess: the switch must be on before a file imports triton).

- mla_txl (txl_mla_interface.py, MLA decode, 3 warpgroups): its launcher
  gives each of NUM_SMS programs B // NUM_SMS batches, so the batch counts
  are multiples of the SM count (1 and 2 batches per program: the second
  pass of the persistent loop reuses the query barriers' phases).
- txl_mla0 (txl_nsa_interface.py, sparse MLA prefill with cp.async KV
  gathers signalled by mbar_arrive(track_async_op=True)): ragged S_KV,
  invalid and repeated indices, top-k 128 to 2048, 1 and 2 head blocks,
  against the file's semantics as written (an upstream bug zeroes some
  blocks' scores past top-k 128).
"""

import os
import subprocess
import sys

import pytest
import torch
from conftest import real_compiler

pytestmark = real_compiler

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


def run_driver(*args):
    if not hopper():
        pytest.skip("the kernels are compiled for sm_90a")
    env = dict(os.environ)
    if os.environ.get("TXL_TEST_INSTALLED"):
        import txl
        paths = [os.path.join(os.path.dirname(txl.__file__), "compat_site")]
    else:
        paths = [os.path.join(REPO, "python"),
                 os.path.join(REPO, "python", "txl", "compat_site")]
    env.update(TXL_AS_TRITON="1", PYTHONPATH=os.pathsep.join(paths))
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "compat_mla_driver.py"),
         *map(str, args)],
        capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-6000:]
    assert any(line.startswith("OK ") for line in proc.stdout.splitlines()), \
        proc.stdout
    print(proc.stdout)


def sms():
    return torch.cuda.get_device_properties("cuda").multi_processor_count


@pytest.mark.parametrize("per_sm,H,N_Q,KV", [(1, 1, 64, 256),
                                             (1, 2, 32, 128),
                                             (2, 1, 64, 384),
                                             (1, 4, 64, 1024)],
                         ids=lambda v: str(v))
def test_mla_txl(per_sm, H, N_Q, KV):
    run_driver("mla_txl", per_sm * sms(), H, N_Q, KV)


# txl_mla0's buffers take 231,008 B of the 232,448 a CTA may have: it fits
# because its producer's index reshapes ([512, 8] -> [64, 64] and a range
# % 64) rename registers instead of moving data through shared scratch
# (AssignLayouts gives their sources the preimage layout). The reference is
# what the file computes as written: past the first loop iteration (top-k
# 128) warpgroup 0's blocks score 0, an upstream bug (see
# compat_mla_driver.sparse_reference); the driver prints how far that is
# from the true sparse attention.
@pytest.mark.parametrize("S_Q,H_Q,S_KV,TOPK", [(1, 64, 1000, 128),
                                               (3, 128, 4099, 512),
                                               (37, 64, 777, 256),
                                               (8, 128, 9000, 2048)],
                         ids=lambda v: str(v))
def test_txl_mla0(S_Q, H_Q, S_KV, TOPK):
    run_driver("txl_mla0", S_Q, H_Q, S_KV, TOPK)

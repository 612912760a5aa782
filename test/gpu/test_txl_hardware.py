"""The explicit-hardware txl.* layer on the GPU: warpgroup roles with
register reallocation and an mbarrier hand-off through shared memory.
Random inputs, poisoned outputs, float64 references, aligned and ragged
sizes. tl.dot on shared buffers (wgmma) is tested with the GEMM ladder in
test_gemm_ladder.py."""

import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler
from harness import check, random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "examples"))
pytest.importorskip("triton")  # the kernels import triton.language

import warpgroup_handoff  # noqa: E402


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


@pytest.mark.parametrize("n", [1, 1000, 1024, 5000, 65536 + 17])
def test_warpgroup_handoff(n):
    if not hopper():
        pytest.skip("setmaxnreg and mbarrier transactions need sm_90")
    block = 1024
    x = random_tensor((n,), torch.float32)
    y = torch.empty_like(x)

    def launch(y_, x_):
        grid = ((n + block - 1) // block,)
        warpgroup_handoff.warpgroup_handoff[grid](
            x_, y_, n, BLOCK=block, num_warps=4, num_warpgroups=2)

    check(launch, lambda x_: 2 * x_ + 1, inputs=[x], outputs=[y],
          atol=0, rtol=0)


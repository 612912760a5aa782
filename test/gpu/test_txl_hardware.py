"""The explicit-hardware txl.* layer on the GPU: warpgroup roles with
register reallocation, mbarrier hand-off through shared memory, and the
GEMM ladder's first step (tl.dot on shared buffers as an async wgmma group
with txl.dot_wait). Random inputs, poisoned outputs, float64 references,
aligned and ragged sizes."""

import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler
from harness import check, random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "examples"))
sys.path.insert(0, os.path.join(REPO, "tutorials", "gemm"))
pytest.importorskip("triton")  # the kernels import triton.language

import step01_one_tile  # noqa: E402
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


@pytest.mark.parametrize("size", [(128, 128, 64), (256, 384, 192),
                                  (200, 136, 100), (64, 64, 16),
                                  (1024, 512, 1024)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("block", [(128, 128, 64), (64, 256, 64),
                                   (128, 64, 32)],
                         ids=lambda b: "x".join(map(str, b)))
def test_gemm_step01(size, block):
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    M, N, K = size
    bm, bn, bk = block
    gen = torch.Generator(device="cuda").manual_seed(M * 131 + N * 7 + K)
    a = random_tensor((M, K), torch.float16, generator=gen, low=-2, high=2)
    bt = random_tensor((N, K), torch.float16, generator=gen, low=-2, high=2)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)

    def launch(c_, a_, bt_):
        grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
        step01_one_tile.gemm_step01[grid](a_, bt_, c_, M, N, K, BLOCK_M=bm,
                                          BLOCK_N=bn, BLOCK_K=bk, num_warps=4)

    check(launch, lambda a_, bt_: a_ @ bt_.t(), inputs=[a, bt], outputs=[c],
          atol=1e-2 * max(1, K ** 0.5 / 8), rtol=1e-3)

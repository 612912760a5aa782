"""The GEMM ladder (tutorials/gemm) on the GPU, steps 1-3: one tile and one
wgmma group; a K loop with an mbarrier whose phase flips; a 2-D grid with
ragged edges. Random fp16 inputs, poisoned outputs, float64 references
(rtol 1e-3, atol 1e-2), each step under the three block shapes the
tutorials are written for."""

import os
import sys

import pytest
import torch

from conftest import REPO, real_compiler
from harness import check, random_tensor

pytestmark = real_compiler

sys.path.insert(0, os.path.join(REPO, "tutorials", "gemm"))
pytest.importorskip("triton")  # the tutorials import triton.language

import step01_one_tile  # noqa: E402
import step02_k_loop  # noqa: E402
import step03_grid  # noqa: E402

RTOL, ATOL = 1e-3, 1e-2

# (BLOCK_M, BLOCK_N, BLOCK_K): a square tile, one m64n256 row, a short K.
BLOCKS = [(128, 128, 64), (64, 256, 64), (128, 64, 32)]


def hopper():
    return torch.cuda.get_device_capability() >= (9, 0)


def block_id(b):
    return "x".join(map(str, b))


def operands(M, N, K):
    """A [M, K] and B^T [N, K], fp16, seeded by the problem size."""
    gen = torch.Generator(device="cuda").manual_seed(M * 131 + N * 7 + K)
    a = random_tensor((M, K), torch.float16, generator=gen)
    bt = random_tensor((N, K), torch.float16, generator=gen)
    return a, bt


def matmul_bt(a, bt):
    return a @ bt.t()


@pytest.mark.parametrize("block", BLOCKS, ids=block_id)
def test_gemm_step01_one_tile(block):
    if not hopper():
        pytest.skip("wgmma needs sm_90a")
    bm, bn, bk = block
    a, bt = operands(bm, bn, bk)
    c = torch.empty((bm, bn), device="cuda", dtype=torch.float16)

    def launch(c_, a_, bt_):
        step01_one_tile.gemm_step01[(1,)](a_, bt_, c_, BLOCK_M=bm, BLOCK_N=bn,
                                          BLOCK_K=bk, num_warps=4)

    check(launch, matmul_bt, inputs=[a, bt], outputs=[c], atol=ATOL,
          rtol=RTOL)


# K slices: one (the barrier completes one phase), two (the parity comes
# back to 0), an odd count, and a long loop.
@pytest.mark.parametrize("slices", [1, 2, 7, 32])
@pytest.mark.parametrize("block", BLOCKS, ids=block_id)
def test_gemm_step02_k_loop(block, slices):
    if not hopper():
        pytest.skip("wgmma and mbarrier try_wait need sm_90a")
    bm, bn, bk = block
    K = slices * bk
    a, bt = operands(bm, bn, K)
    c = torch.empty((bm, bn), device="cuda", dtype=torch.float16)

    def launch(c_, a_, bt_):
        step02_k_loop.gemm_step02[(1,)](a_, bt_, c_, K, BLOCK_M=bm,
                                        BLOCK_N=bn, BLOCK_K=bk, num_warps=4)

    check(launch, matmul_bt, inputs=[a, bt], outputs=[c], atol=ATOL,
          rtol=RTOL)


# Aligned to every block shape, then ragged in M, N and/or K (including a
# K tail shorter than one k16 step, a single element, and a problem smaller
# than one tile).
SIZES = [(128, 128, 64), (256, 512, 192), (1024, 512, 1024),
         (200, 136, 100), (64, 64, 16), (1, 1, 1), (130, 70, 17),
         (333, 257, 129)]


@pytest.mark.parametrize("size", SIZES, ids=block_id)
@pytest.mark.parametrize("block", BLOCKS, ids=block_id)
def test_gemm_step03_grid(size, block):
    if not hopper():
        pytest.skip("wgmma and mbarrier try_wait need sm_90a")
    M, N, K = size
    bm, bn, bk = block
    a, bt = operands(M, N, K)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)

    def launch(c_, a_, bt_):
        grid = ((M + bm - 1) // bm, (N + bn - 1) // bn)
        step03_grid.gemm_step03[grid](a_, bt_, c_, M, N, K, BLOCK_M=bm,
                                      BLOCK_N=bn, BLOCK_K=bk, num_warps=4)

    check(launch, matmul_bt, inputs=[a, bt], outputs=[c], atol=ATOL,
          rtol=RTOL)

"""The GEMM ladder (tutorials/gemm) on the GPU, steps 1-8 and 10: one tile
and one wgmma group; a K loop with an mbarrier whose phase flips; a 2-D grid
with ragged edges; TMA loads and a TMA-store epilogue; a two-stage pipeline;
persistent CTAs with a grouped tile order; warp specialization (producer,
MMA and epilogue warpgroups, four barrier kinds); a four-stage pipeline; two
consumer warpgroups sharing a CTA tile. Random fp16 inputs, poisoned
outputs, float64 references (rtol 1e-3, atol 1e-2), each step under the
block shapes the tutorials are written for. Step 9 runs 2-CTA clusters
whose CTAs multicast halves of the B tiles to each other."""

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
import step04_tma  # noqa: E402
import step05_pipeline  # noqa: E402
import step06_persistent  # noqa: E402
import step07_warp_specialized  # noqa: E402
import step08_deep_pipeline  # noqa: E402
import step09_cluster_multicast  # noqa: E402
import step10_two_consumers  # noqa: E402
import txl  # noqa: E402

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


# Steps 4-6 move tiles with TMA: the host describes A, B^T and C with
# tensor descriptors, whose row strides must be multiples of 16 bytes (K and
# N multiples of 8 for fp16; M is free). The sizes are still ragged with
# respect to every block shape: out-of-bounds boxes read zeros and stores
# are clipped, with no masks in the kernels.
TMA_BLOCKS = [(128, 128, 64), (128, 256, 64), (64, 256, 64), (128, 64, 32)]

# Aligned; then ragged M/N with K tails of half a slice, one k16 step,
# one element row of A (M = 1), a problem smaller than a tile, an odd
# number of K slices (3 or 5 with BLOCK_K = 64 / 32) and a long K.
TMA_SIZES = [(128, 128, 64), (256, 512, 192), (1024, 512, 1024),
             (200, 136, 104), (64, 64, 16), (1, 8, 8), (130, 72, 24),
             (333, 264, 136), (129, 8, 2056)]


def tma_case(M, N, K, block):
    """Operands, and C as a window of a larger NaN-filled tensor, so that a
    store outside C (an unclipped edge box) is caught. The window keeps
    16-byte aligned rows and base."""
    a, bt = operands(M, N, K)
    big = torch.full((M + 9, N + 24), float("nan"), device="cuda",
                     dtype=torch.float16)
    c = big[5:5 + M, 8:8 + N]
    return a, bt, big, c


def descriptors(c, a, bt, block):
    bm, bn, bk = block
    return (txl.TensorDescriptor.from_tensor(a, [bm, bk]),
            txl.TensorDescriptor.from_tensor(bt, [bn, bk]),
            txl.TensorDescriptor.from_tensor(c, [bm, bn]))


def assert_outside_untouched(big, M, N):
    outside = big.clone()
    outside[5:5 + M, 8:8 + N] = 0
    assert torch.isnan(outside).sum().item() == outside.numel() - M * N, \
        "the kernel wrote outside C"


def grid_2d(M, N, block):
    bm, bn, _ = block
    return ((M + bm - 1) // bm, (N + bn - 1) // bn)


@pytest.mark.parametrize("size", TMA_SIZES, ids=block_id)
@pytest.mark.parametrize("block", TMA_BLOCKS, ids=block_id)
@pytest.mark.parametrize("step", ["step04", "step05"])
def test_gemm_step04_step05(step, size, block):
    """Steps 4 (TMA, one stage) and 5 (two-stage pipeline): one CTA per
    output tile, the same launch."""
    if not hopper():
        pytest.skip("TMA and wgmma need sm_90a")
    kernel = {"step04": step04_tma.gemm_step04,
              "step05": step05_pipeline.gemm_step05}[step]
    M, N, K = size
    bm, bn, bk = block
    a, bt, big, c = tma_case(M, N, K, block)

    def launch(c_, a_, bt_):
        a_d, bt_d, c_d = descriptors(c_, a_, bt_, block)
        kernel[grid_2d(M, N, block)](
            a_d, bt_d, c_d, K, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
            num_warps=4)

    check(launch, matmul_bt, inputs=[a, bt], outputs=[c], atol=ATOL,
          rtol=RTOL)
    assert_outside_untouched(big, M, N)


def run_step06(size, block, programs, group_m):
    M, N, K = size
    bm, bn, bk = block
    a, bt, big, c = tma_case(M, N, K, block)
    num_tiles = ((M + bm - 1) // bm) * ((N + bn - 1) // bn)
    if programs == "sms":
        programs = torch.cuda.get_device_properties(0).multi_processor_count
    grid = (min(programs, num_tiles),)

    def launch(c_, a_, bt_):
        a_d, bt_d, c_d = descriptors(c_, a_, bt_, block)
        # NUM_SMS is the stride of the tile loop: the grid size, so every
        # tile is computed by exactly one CTA.
        step06_persistent.gemm_step06[grid](
            a_d, bt_d, c_d, M, N, K, grid[0], BLOCK_M=bm, BLOCK_N=bn,
            BLOCK_K=bk, GROUP_M=group_m, num_warps=4)

    check(launch, matmul_bt, inputs=[a, bt], outputs=[c], atol=ATOL,
          rtol=RTOL)
    assert_outside_untouched(big, M, N)


# One CTA per SM; and so few CTAs that each walks many tiles, carrying its
# stage counter and barrier parities from tile to tile (odd slice counts
# make the next tile start on the other stage).
@pytest.mark.parametrize("programs", ["sms", 3], ids=str)
@pytest.mark.parametrize("size", TMA_SIZES, ids=block_id)
@pytest.mark.parametrize("block", TMA_BLOCKS, ids=block_id)
def test_gemm_step06_persistent(size, block, programs):
    if not hopper():
        pytest.skip("TMA and wgmma need sm_90a")
    run_step06(size, block, programs, group_m=8)


# The grouped order: groups of one tile row (row-major order), a last
# group shorter than GROUP_M (9 tile rows in groups of 4), a group taller
# than the matrix; a single CTA that computes every tile.
@pytest.mark.parametrize("programs", ["sms", 5, 1], ids=str)
@pytest.mark.parametrize("group_m", [1, 4, 16])
def test_gemm_step06_grouping(group_m, programs):
    if not hopper():
        pytest.skip("TMA and wgmma need sm_90a")
    run_step06((1100, 776, 200), (128, 128, 64), programs, group_m)


# Steps 7, 8 and 10 are warp-specialized: three warpgroups (num_warps=4,
# num_warpgroups=3) with setmaxnreg, persistent like step 6. The grids: one
# CTA per SM, a few CTAs, and a single CTA that walks every tile, so the
# stage ring and the accumulator barriers go through many phases (odd
# slice counts per tile make consecutive tiles start on different stages).
WS_GRIDS = ["sms", 3, 1]


def run_ws(kernel, size, block, programs, group_m=8, c_rows=None, **extra):
    """Launches a warp-specialized persistent step and checks C. `c_rows` is
    the row count of the C descriptor's block (the whole tile by default,
    half of it for step 10's two consumers)."""
    M, N, K = size
    bm, bn, bk = block
    a, bt, big, c = tma_case(M, N, K, block)
    num_tiles = ((M + bm - 1) // bm) * ((N + bn - 1) // bn)
    if programs == "sms":
        programs = torch.cuda.get_device_properties(0).multi_processor_count
    grid = (min(programs, num_tiles),)

    def launch(c_, a_, bt_):
        a_d = txl.TensorDescriptor.from_tensor(a_, [bm, bk])
        bt_d = txl.TensorDescriptor.from_tensor(bt_, [bn, bk])
        c_d = txl.TensorDescriptor.from_tensor(c_, [c_rows or bm, bn])
        kernel[grid](a_d, bt_d, c_d, M, N, K, grid[0], BLOCK_M=bm,
                     BLOCK_N=bn, BLOCK_K=bk, GROUP_M=group_m, num_warps=4,
                     num_warpgroups=3, **extra)

    check(launch, matmul_bt, inputs=[a, bt], outputs=[c], atol=ATOL,
          rtol=RTOL)
    assert_outside_untouched(big, M, N)


# One MMA warpgroup holds the whole tile: at most 128 fp32 registers of
# accumulator per thread (128x128 or 64x256), and a short-K tile.
WS_BLOCKS = [(128, 128, 64), (64, 256, 64), (128, 64, 32)]


@pytest.mark.parametrize("programs", WS_GRIDS, ids=str)
@pytest.mark.parametrize("size", TMA_SIZES, ids=block_id)
@pytest.mark.parametrize("block", WS_BLOCKS, ids=block_id)
def test_gemm_step07_warp_specialized(size, block, programs):
    if not hopper():
        pytest.skip("TMA, wgmma and setmaxnreg need sm_90a")
    run_ws(step07_warp_specialized.gemm_step07, size, block, programs)


# The tile order still only decides which CTA computes a tile: row-major
# groups and a short last group, with 1, 5 and all CTAs.
@pytest.mark.parametrize("programs", ["sms", 5, 1], ids=str)
@pytest.mark.parametrize("group_m", [1, 4])
def test_gemm_step07_grouping(group_m, programs):
    if not hopper():
        pytest.skip("TMA, wgmma and setmaxnreg need sm_90a")
    run_ws(step07_warp_specialized.gemm_step07, (1100, 776, 200),
           (128, 128, 64), programs, group_m=group_m)


# (BLOCK_M, BLOCK_N, BLOCK_K, NUM_STAGES): four stages of 128x128x64 (225 KB
# of shared memory, the most that fits), a 64x256 tile that fits only
# three, four stages of short 32-wide K slices.
DEEP_CONFIGS = [(128, 128, 64, 4), (64, 256, 64, 3), (128, 64, 32, 4)]


@pytest.mark.parametrize("programs", WS_GRIDS, ids=str)
@pytest.mark.parametrize("size", TMA_SIZES, ids=block_id)
@pytest.mark.parametrize("cfg", DEEP_CONFIGS, ids=block_id)
def test_gemm_step08_deep_pipeline(size, cfg, programs):
    if not hopper():
        pytest.skip("TMA, wgmma and setmaxnreg need sm_90a")
    run_ws(step08_deep_pipeline.gemm_step08, size, cfg[:3], programs,
           NUM_STAGES=cfg[3])


# Step 9: a program is a 2-CTA cluster owning two tiles stacked along M;
# each CTA multicasts half of the B^T slice. Clusters: one per SM pair, a
# few, and one that walks every tile pair (many phases of the remote
# smem-free arrivals). Ragged sizes leave the second CTA's rows partly or
# wholly below M (it still loads zeros and feeds its peer).
CLUSTER_CONFIGS = [(128, 128, 64, 4), (64, 256, 64, 3), (128, 64, 32, 4)]


@pytest.mark.parametrize("clusters", ["sms", 3, 1], ids=str)
@pytest.mark.parametrize("size", TMA_SIZES, ids=block_id)
@pytest.mark.parametrize("cfg", CLUSTER_CONFIGS, ids=block_id)
def test_gemm_step09_cluster_multicast(size, cfg, clusters):
    if not hopper():
        pytest.skip("clusters, TMA multicast and wgmma need sm_90a")
    M, N, K = size
    bm, bn, bk, stages = cfg
    a, bt, big, c = tma_case(M, N, K, cfg[:3])
    pairs = ((M + 2 * bm - 1) // (2 * bm)) * ((N + bn - 1) // bn)
    if clusters == "sms":
        clusters = torch.cuda.get_device_properties(0).multi_processor_count // 2
    grid = (min(clusters, pairs),)

    def launch(c_, a_, bt_):
        a_d = txl.TensorDescriptor.from_tensor(a_, [bm, bk])
        bt_d = txl.TensorDescriptor.from_tensor(bt_, [bn // 2, bk])
        c_d = txl.TensorDescriptor.from_tensor(c_, [bm, bn])
        step09_cluster_multicast.gemm_step09[grid](
            a_d, bt_d, c_d, M, N, K, grid[0], BLOCK_M=bm, BLOCK_N=bn,
            BLOCK_K=bk, GROUP_M=8, NUM_STAGES=stages, num_warps=4,
            num_warpgroups=3, num_ctas=2)

    check(launch, matmul_bt, inputs=[a, bt], outputs=[c], atol=ATOL,
          rtol=RTOL)
    assert_outside_untouched(big, M, N)


# (BLOCK_M, BLOCK_N, BLOCK_K, NUM_STAGES): the two consumers split the rows
# of the tile -- 64x256 halves (m64n256 wgmmas), 128x128 halves (a 256-row
# A box), and a 128x128 tile of 64x128 halves with four stages. Sizes below
# half a tile leave the second consumer's stores entirely out of bounds.
TWO_CONSUMER_CONFIGS = [(128, 256, 64, 3), (256, 128, 64, 3),
                        (128, 128, 64, 4)]


@pytest.mark.parametrize("programs", WS_GRIDS, ids=str)
@pytest.mark.parametrize("size", TMA_SIZES, ids=block_id)
@pytest.mark.parametrize("cfg", TWO_CONSUMER_CONFIGS, ids=block_id)
def test_gemm_step10_two_consumers(size, cfg, programs):
    if not hopper():
        pytest.skip("TMA, wgmma and setmaxnreg need sm_90a")
    run_ws(step10_two_consumers.gemm_step10, size, cfg[:3], programs,
           c_rows=cfg[0] // 2, NUM_STAGES=cfg[3])

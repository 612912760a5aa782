"""txl.warp_max / txl.warp_sum kernels (test_warp_reduce.py; a module of its
own so txlc can compile them without a GPU)."""

import triton.language as tl
import txl


@txl.jit
def row_reduce(x_ptr, mx_ptr, sm_ptr, M, N: tl.constexpr,
               BM: tl.constexpr):
    """Per-row max and sum of an [M, N] fp32 matrix, BM rows per program:
    the rows of a 2-D tile lie within a warp in the default layout, so the
    warp-level reductions apply."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=rm[:, None] < M,
                other=0.0)
    tl.store(mx_ptr + rm, txl.warp_max(x, 1), mask=rm < M)
    tl.store(sm_ptr + rm, txl.warp_sum(x, axis=1), mask=rm < M)


@txl.jit
def accumulator_row_max(q_ptr, k_ptr, out_ptr, D: tl.constexpr):
    """The FlashAttention use: the row max of S = Q K^T taken directly in
    the wgmma accumulator layout (each row of a warp's 16 lives in 4 lanes
    of that warp), 64 x 64 tile, one warpgroup."""
    rm = tl.arange(0, 64)
    rd = tl.arange(0, D)
    sq = txl.get_buffer(txl.smem_alloc([64, D], dtype=tl.float16), 0)
    sk = txl.get_buffer(txl.smem_alloc([64, D], dtype=tl.float16), 0)
    txl.smem_store(sq, tl.load(q_ptr + rm[:, None] * D + rd[None, :]))
    txl.smem_store(sk, tl.load(k_ptr + rm[:, None] * D + rd[None, :]))
    s = tl.dot(sq, sk.T)
    txl.dot_wait(0)
    tl.store(out_ptr + rm, txl.warp_max(s, 1))


@txl.jit
def column_max(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    """Invalid: with 4 warps stacked over the rows, a column reduction needs
    all warps (a located compile error)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    tl.store(y_ptr + rn, txl.warp_max(x, 0))

"""Kernels of test_compat_surface.py: the txl surface the TXL project's
kernels use (issue 13 point 4). A module of its own so txlc compiles it."""

import triton.language as tl
import txl


@txl.jit
def store_halves(x_ptr, y_desc, M, BM: tl.constexpr, BN: tl.constexpr,
                 DT: tl.constexpr):
    """y[rows of this program, :] = x * 2 + 1, written by two TMA stores of
    [BM, BN // 2] buffers into one [BM, BN] descriptor block."""
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN // 2)
    mask = rows[:, None] < M
    left = txl.get_buffer(txl.smem_alloc([BM, BN // 2], dtype=DT), 0)
    right = txl.get_buffer(txl.smem_alloc([BM, BN // 2], dtype=DT), 0)
    x0 = tl.load(x_ptr + rows[:, None] * BN + cols[None, :], mask=mask)
    x1 = tl.load(x_ptr + rows[:, None] * BN + (BN // 2 + cols)[None, :],
                 mask=mask)
    txl.smem_store(left, x0 * 2 + 1)
    txl.smem_store(right, x1 * 2 + 1)
    txl.tma_store(right, y_desc, [pid * BM, BN // 2])
    txl.tma_store(left, y_desc, [pid * BM, 0])
    txl.tma_store_wait(0)


@txl.jit
def role_by_warpgroup_id(y_ptr, BLOCK: tl.constexpr):
    """Warpgroup 0 gives registers back and writes 1s, warpgroup 1 takes
    more and writes 2s: setmaxnreg under `warpgroup_id() == k`."""
    wg = txl.warpgroup_id()
    offs = tl.arange(0, BLOCK)
    if wg == 0:
        txl.reg_dealloc(40)
        tl.store(y_ptr + offs, tl.full([BLOCK], 1.0, tl.float32))
    else:
        txl.reg_alloc(232)
        tl.store(y_ptr + BLOCK + offs, tl.full([BLOCK], 2.0, tl.float32))

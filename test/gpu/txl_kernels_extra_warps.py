"""Kernels of test_extra_warps.py: an is_warp role past num_warps adds a
warp to the launch (docs/blackwell.md, the TXL project's TMA/MMA warps)."""

import triton.language as tl
import txl


@txl.jit
def extra_warp_producer(x_desc, y_ptr, M, N, BM: tl.constexpr,
                        BN: tl.constexpr):
    # Warp 4 (past num_warps=4) loads the tile by TMA; warps 0-3 wait for
    # it and compute y = x + (column sums of the tile) + 1: the column sum
    # exchanges partial sums between the four warps through shared memory,
    # so its barriers must not wait for warp 4.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    buf = txl.get_buffer(txl.smem_alloc([BM, BN], dtype=tl.float32), 0)
    full = txl.get_buffer(txl.mbar_alloc(1), 0)
    if txl.is_warp([4]):
        txl.mbar_expect(full, BM * BN * 4)
        txl.tma_load(buf, x_desc, [pid_m * BM, pid_n * BN], full)
    else:
        txl.mbar_wait(full, 0)
        x = txl.smem_load(buf)
        s = tl.sum(x, axis=0)
        y = x + s[None, :] + 1.0
        rows = pid_m * BM + tl.arange(0, BM)
        cols = pid_n * BN + tl.arange(0, BN)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        tl.store(y_ptr + rows[:, None] * N + cols[None, :], y, mask=mask)

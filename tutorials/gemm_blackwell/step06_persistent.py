"""Blackwell GEMM ladder, step 6: persistent CTAs with an L2-grouped order.

    C[M, N] = A[M, K] @ B[K, N],  grid = (NUM_SMS,)

Instead of one CTA per tile, launch one CTA per SM and let each walk tiles
tile = pid, pid + NUM_SMS, ... until none are left. The CTA's setup -
tensor-memory allocation, barrier initialization, descriptor prefetch - is
paid once, and the next tile's first loads can follow the last tile's
MMAs without a kernel boundary.

The order of the tiles matters for L2: consecutive tile ids are spread
over GROUP_M rows of tiles column by column (the grouped order of the
Triton tutorial), so the CTAs running at the same time share A rows and B
columns in L2 instead of streaming all of B for every row of tiles.

Per tile the body is step 4's (TMA slice into the buffers, one `dotx`
committed to `done`, wait, next slice), with two things carried across
tiles: the barriers' phase - it keeps flipping, because `ready` and `done`
complete one phase per slice whatever tile it belongs to - and the
epilogue's shared tile, which the previous tile's TMA store may still be
reading (`txl.tma_store_wait(0)` before overwriting it). The accumulator
needs nothing: the first MMA of every tile overwrites it (`useD=k > 0`),
and the tensor memory is allocated once for the whole kernel.
"""
import triton.language as tl
import txl


@txl.jit
def gemm_bw_step06(a_desc, bt_desc, c_desc, M, N, K, NUM_SMS,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    ready = txl.get_buffer(txl.mbar_alloc(1), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2

    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    group_tiles = GROUP_M * num_pid_n
    phase = 0
    for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
        group = tile // group_tiles
        first_m = group * GROUP_M
        rows = tl.minimum(num_pid_m - first_m, GROUP_M)
        inner = tile - group * group_tiles
        off_m = (first_m + inner % rows) * BLOCK_M
        off_n = (inner // rows) * BLOCK_N
        for k in range(0, K, BLOCK_K):
            txl.mbar_expect(ready, SLICE_BYTES)
            txl.tma_load(sA, a_desc, [off_m, k], ready)
            txl.tma_load(sB, bt_desc, [off_n, k], ready)
            txl.mbar_wait(ready, phase)
            txl.dotx(sA, sB.T, acc, useD=k > 0, mbars=[done])
            txl.mbar_wait(done, phase)
            phase ^= 1
        c = txl.tmem_load(acc)
        # The previous tile's store must have read sC.
        txl.tma_store_wait(0)
        txl.smem_store(sC, c.to(tl.float16))
        txl.tma_store(sC, c_desc, [off_m, off_n])
    txl.tma_store_wait(0)

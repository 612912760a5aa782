"""GEMM ladder, step 6: persistent CTAs and an L2-friendly tile order.

    C[M, N] = A[M, K] @ B[K, N],  M, N, K >= 1 (row strides 16-byte aligned)

Steps 3-5 launch one CTA per output tile. For a large C that is thousands
of CTAs, each paying its start-up (barrier init, descriptor fetch, the
pipeline prologue) and each ending with a TMA store that nothing overlaps.
A *persistent* kernel launches only as many CTAs as the GPU has SMs,

    grid = (min(NUM_SMS, num_tiles),)

and each CTA walks the tiles itself:

    for tile in range(pid, num_tiles, NUM_SMS):  # pid, pid + NUM_SMS, ...

New in this step:

The tile scheduler. Tile `tile` is turned into (pid_m, pid_n). Row-major
order (pid_m = tile // num_pid_n) makes the CTAs running at the same time
sweep one row band of C: they share one band of A but each needs a
different column band of B, so B is re-fetched from DRAM for every band of
rows. Grouped order walks the tiles in bands of GROUP_M tile rows, going
down a band's column before moving right:

    tiles of a group = GROUP_M * num_pid_n  (the last group may be shorter)
    group   = tile // tiles of a group
    first_m = group * GROUP_M
    rows    = min(GROUP_M, num_pid_m - first_m)
    inner   = tile - group * tiles of a group
    pid_m   = first_m + inner % rows,   pid_n = inner // rows

NUM_SMS consecutive tiles then cover a roughly square patch of C (about
GROUP_M rows by NUM_SMS / GROUP_M columns), whose A and B bands fit in L2
together, so most operand bytes come from L2 instead of DRAM. The order
changes which tile a CTA computes, never what it computes.

State that outlives a tile. Shared buffers and mbarriers are set up once
per CTA and reused by every tile, so the barrier bookkeeping must continue
across tiles: `it` counts the K slices this CTA has consumed so far, slice
k of the current tile lives in stage (it + k) % 2, and `phases` (one parity
bit per stage, as in step 5) is carried from tile to tile. Restarting
either at zero for each tile would be wrong as soon as a tile has an odd
number of slices: the next tile would wait on a parity its stage already
completed, pass at once, and multiply stale data.

Every tile begins with all stages free: the previous tile ended with
`dot_wait(0)`, so no wgmma still reads them, and its loads were all
consumed. Each tile then runs step 5's two-stage K loop.

An overlapped epilogue. The TMA store of tile t runs while tile t+1's K
loop does; its source sC may only be rewritten once the store has read it.
So the wait moves from the end of the tile to just before the next
`txl.smem_store(sC, ...)`: `txl.tma_store_wait(0)` (issued by thread 0,
whose bulk group it is) followed by smem_store, which synchronizes the
warpgroup before any thread writes -- no thread can write sC before thread
0's wait has returned. After the last tile the kernel waits once more, so
it never exits with a store in flight.

NUM_SMS is a runtime argument (the host passes the SM count, or fewer
CTAs); the grid must be (min(NUM_SMS, num_tiles),) -- more CTAs than
NUM_SMS would compute some tiles twice. num_warps=4.
"""
import triton.language as tl
import txl

NUM_STAGES = 2


@txl.jit
def gemm_step06(a_desc, bt_desc, c_desc, M, N, K, NUM_SMS,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    ready = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2

    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    num_k = tl.cdiv(K, BLOCK_K)
    group_tiles = GROUP_M * num_pid_n

    it = 0      # K slices consumed by this CTA, over all its tiles
    phases = 0  # bit s: the parity of the next wait on stage s
    for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
        # Grouped order: down GROUP_M tile rows, then one column right.
        group = tile // group_tiles
        first_m = group * GROUP_M
        rows = tl.minimum(num_pid_m - first_m, GROUP_M)
        inner = tile - group * group_tiles
        off_m = (first_m + inner % rows) * BLOCK_M
        off_n = (inner // rows) * BLOCK_N

        # Step 5's pipeline, its stages numbered on from the last tile.
        s0 = it % NUM_STAGES
        bar0 = txl.get_buffer(ready, s0)
        txl.mbar_expect(bar0, SLICE_BYTES)
        txl.tma_load(txl.get_buffer(sA, s0), a_desc, [off_m, 0], bar0)
        txl.tma_load(txl.get_buffer(sB, s0), bt_desc, [off_n, 0], bar0)

        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        for k in range(0, num_k):
            s = (it + k) % NUM_STAGES
            txl.mbar_wait(txl.get_buffer(ready, s), (phases >> s) & 1)
            phases ^= 1 << s

            acc = tl.dot(txl.get_buffer(sA, s), txl.get_buffer(sB, s).T, acc)
            txl.dot_wait(1)  # retires slice k-1: its stage may be refilled

            if k + 1 < num_k:
                ns = 1 - s
                bar = txl.get_buffer(ready, ns)
                txl.mbar_expect(bar, SLICE_BYTES)
                txl.tma_load(txl.get_buffer(sA, ns), a_desc,
                             [off_m, (k + 1) * BLOCK_K], bar)
                txl.tma_load(txl.get_buffer(sB, ns), bt_desc,
                             [off_n, (k + 1) * BLOCK_K], bar)
        txl.dot_wait(0)
        it += num_k

        # The previous tile's store must have read sC before it is
        # rewritten; smem_store then synchronizes behind thread 0's wait.
        txl.tma_store_wait(0)
        txl.smem_store(sC, acc.to(tl.float16))
        txl.tma_store(sC, c_desc, [off_m, off_n])

    txl.tma_store_wait(0)

"""GEMM ladder, step 10: two consumer warpgroups share one CTA tile.

    C[M, N] = A[M, K] @ B[K, N],  M, N, K >= 1 (row strides 16-byte aligned)

This step builds on step 8 (one CTA per program); step 9's cluster is
orthogonal and combines with it.

Steps 7 and 8 give one MMA warpgroup the whole CTA tile. Its accumulator
lives in its registers: a 128x128 fp32 tile is 128 registers per thread,
and 128x256 would be 256 -- more than a thread can have (255), with nothing
left for addresses. So one warpgroup tops out at 128x128 (or 64x256). Here
the CTA tile doubles, to 128x256 (or 256x128), and two MMA warpgroups --
the *consumers* -- each own one half of it:

    warpgroup 1: rows [0, BLOCK_M/2)        of the tile, all BLOCK_N columns
    warpgroup 2: rows [BLOCK_M/2, BLOCK_M)  of the tile, all BLOCK_N columns

Each multiplies its half of the A stage (`txl.smem_slice(stage, half *
BLOCK_M/2, BLOCK_M/2, 0)`, a view, no copy) by the whole B^T stage.

Why it pays:
- Fewer bytes per FLOP. A K slice moves (BLOCK_M + BLOCK_N) * BLOCK_K
  elements and does BLOCK_M * BLOCK_N * BLOCK_K multiply-adds: 64 per
  element loaded for 128x128, 85 for 128x256. The B tile of a stage is
  loaded once and read by both consumers.
- Two instruction streams on the tensor cores. While one consumer waits
  (for a stage, for its wgmma to retire, in its epilogue) the other's
  wgmmas keep the tensor cores busy.

What changes against step 8:

Barriers. The producer is unchanged: one `full` (data-ready) barrier per
stage, count 1, completed by its expect and the TMA bytes. Both consumers
wait on it -- waiting does not consume a phase, any number of threads may
observe it. The `empty` (smem-free) barrier of a stage must now hear from
both consumers, because the stage is free only when the wgmmas of both have
read it: every thread of both arrives after its dot_wait, count 256. (With
count 128 the first consumer to finish would free the stage while the other
still reads it, and every round would complete two phases instead of one:
wrong sums, or a producer waiting on the wrong parity forever.)

No epilogue warpgroup, no hand-off. The register file is 65536 = 128 *
512: the per-thread counts of all warpgroups of the CTA must add up to at
most 512. Two consumers at 232 and a producer at 40 already take 504,
leaving 8 -- below setmaxnreg's minimum of 24 -- for a fourth, epilogue
warpgroup. Handing a 128x256 fp32 accumulator over through shared memory
would also cost 128 KB. So each consumer is its own epilogue, as in
step 6: it rounds its half to fp16, writes it to a C buffer of its own
(BLOCK_M/2 x BLOCK_N), TMA-stores it, and lets the store run under its next
tile's K loop, waiting for it (tma_store_wait(0)) only right before it
rewrites that buffer. The acc-ready and acc-free barriers are gone; the C
descriptor's block is the half tile, [BLOCK_M/2, BLOCK_N].

The consumers never synchronize with each other directly. They walk the
same tiles and slices, and the `empty` count ties them: the producer cannot
refill a stage until the slower one has released it.

Registers (num_warps=4, num_warpgroups=3, as in step 7): entry 168 per
thread; producer reg_dealloc(40), each consumer reg_alloc(232): 128 * (40 +
232 + 232) = 64512 <= 65536. Shared memory (128x256x64 or 256x128x64, 3
stages): 3 * 48 KB of operands + 2 * 32 KB of C halves + 1 KB = 209 KB; a
fourth stage (257 KB) would not fit.
"""
import triton.language as tl
import txl


@txl.jit
def consumer(sA, sB, c_half, full, empty, c_desc, M, N, K, NUM_SMS,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
             NUM_STAGES: tl.constexpr, HALF: tl.constexpr):
    """One consumer warpgroup: rows [HALF * BLOCK_M/2, (HALF+1) * BLOCK_M/2)
    of every tile."""
    HM: tl.constexpr = BLOCK_M // 2
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    num_k = tl.cdiv(K, BLOCK_K)
    group_tiles = GROUP_M * num_pid_n
    it = 0
    for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
        group = tile // group_tiles
        first_m = group * GROUP_M
        rows = tl.minimum(num_pid_m - first_m, GROUP_M)
        inner = tile - group * group_tiles
        off_m = (first_m + inner % rows) * BLOCK_M
        off_n = (inner // rows) * BLOCK_N
        acc = tl.zeros([HM, BLOCK_N], dtype=tl.float32)
        for k in range(0, num_k):
            s = it % NUM_STAGES
            txl.mbar_wait(txl.get_buffer(full, s), (it // NUM_STAGES) & 1)
            # This consumer's rows of the A stage: a view, no copy.
            a = txl.smem_slice(txl.get_buffer(sA, s), HALF * HM, HM, 0)
            acc = tl.dot(a, txl.get_buffer(sB, s).T, acc)
            txl.dot_wait(1)
            if k > 0:
                # Our half of the release of the previous slice's stage; the
                # other consumer supplies the other 128 arrivals.
                txl.mbar_arrive(txl.get_buffer(
                    empty, (it + NUM_STAGES - 1) % NUM_STAGES))
            it += 1
        txl.dot_wait(0)
        txl.mbar_arrive(txl.get_buffer(
            empty, (it + NUM_STAGES - 1) % NUM_STAGES))
        # Our own epilogue: the previous tile's store must have read c_half.
        txl.tma_store_wait(0)
        txl.smem_store(c_half, acc.to(tl.float16))
        txl.tma_store(c_half, c_desc, [off_m + HALF * HM, off_n])
    txl.tma_store_wait(0)


@txl.jit
def gemm_step10(a_desc, bt_desc, c_desc, M, N, K, NUM_SMS,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                NUM_STAGES: tl.constexpr):
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    # One C buffer per consumer: each stores its half on its own schedule.
    sC = txl.smem_alloc([BLOCK_M // 2, BLOCK_N], dtype=tl.float16,
                        num_stages=2)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    # Every thread of BOTH consumers releases a stage: 2 * 128 arrivals.
    empty = txl.mbar_alloc(256, num_stages=NUM_STAGES)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2
    SMEM_BYTES: tl.constexpr = (NUM_STAGES * SLICE_BYTES
                                + BLOCK_M * BLOCK_N * 2 + 1024)
    tl.static_assert(SMEM_BYTES <= 232448,
                     "NUM_STAGES stages of these blocks exceed the 227 KB "
                     "of shared memory a CTA may have")

    if txl.is_warpgroup([0]):
        # PRODUCER: step 8's, one expect and two loads per slice.
        txl.reg_dealloc(40)
        num_pid_m = tl.cdiv(M, BLOCK_M)
        num_pid_n = tl.cdiv(N, BLOCK_N)
        num_tiles = num_pid_m * num_pid_n
        num_k = tl.cdiv(K, BLOCK_K)
        group_tiles = GROUP_M * num_pid_n
        it = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
            group = tile // group_tiles
            first_m = group * GROUP_M
            rows = tl.minimum(num_pid_m - first_m, GROUP_M)
            inner = tile - group * group_tiles
            off_m = (first_m + inner % rows) * BLOCK_M
            off_n = (inner // rows) * BLOCK_N
            for k in range(0, num_k):
                s = it % NUM_STAGES
                # smem-free: BOTH consumers are done with this stage.
                txl.mbar_wait(txl.get_buffer(empty, s),
                              ((it // NUM_STAGES) & 1) ^ 1)
                bar = txl.get_buffer(full, s)
                txl.mbar_expect(bar, SLICE_BYTES)
                txl.tma_load(txl.get_buffer(sA, s), a_desc,
                             [off_m, k * BLOCK_K], bar)
                txl.tma_load(txl.get_buffer(sB, s), bt_desc,
                             [off_n, k * BLOCK_K], bar)
                it += 1

    if txl.is_warpgroup([1]):
        txl.reg_alloc(232)
        consumer(sA, sB, txl.get_buffer(sC, 0), full, empty, c_desc,
                 M, N, K, NUM_SMS, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M,
                 NUM_STAGES, 0)

    if txl.is_warpgroup([2]):
        txl.reg_alloc(232)
        consumer(sA, sB, txl.get_buffer(sC, 1), full, empty, c_desc,
                 M, N, K, NUM_SMS, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M,
                 NUM_STAGES, 1)

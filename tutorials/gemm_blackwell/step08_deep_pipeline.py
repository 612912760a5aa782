"""Blackwell GEMM ladder, step 8: step 7 with a four-stage ring and a
double-buffered accumulator in tensor memory.

    C[M, N] = A[M, K] @ B[K, N],  grid = (NUM_SMS,), num_warps=4, num_warpgroups=2

Same roles and barrier kinds as step 7 (a TMA warp, an MMA warp, a
writeback warpgroup). Two changes:

* NUM_STAGES = 4: the producer may run up to four slices ahead of the MMA
  warp, which hides more of the TMA latency (shared memory: 4 x 32 KB of
  A/B stages plus the 32 KB C tile).
* Two accumulators: `txl.tmem_alloc([128, BLOCK_N], num_stages=2)` takes
  2 x BLOCK_N columns (256 of the SM's 512 here). Tile t accumulates into
  buffer t % 2, so the MMAs of tile t + 1 run while the writeback is still
  reading tile t. Each buffer has its own `acc_ready` / `acc_free` barrier,
  and both sides count tiles per buffer: buffer t % 2's parity is
  (t // 2) & 1 (the MMA warp's "free" waits start at parity 1, both
  buffers being free at the start). `txl.get_buffer(acc_bufs, t % 2)` with
  a runtime index is a column offset of the tensor-memory address.
"""
import triton.language as tl
import txl

NUM_STAGES = 4
NUM_ACC = 2


@txl.jit
def gemm_bw_step08(a_desc, bt_desc, c_desc, M, N, K, NUM_SMS,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    acc_bufs = txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32,
                              num_stages=NUM_ACC)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    empty = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    acc_ready = txl.mbar_alloc(1, num_stages=NUM_ACC)
    acc_free = txl.mbar_alloc(128, num_stages=NUM_ACC)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2

    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * num_pid_n
    num_k = tl.cdiv(K, BLOCK_K)

    if txl.is_warp([0]):
        # PRODUCER: TMA only.
        it = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
            off_m = (tile // num_pid_n) * BLOCK_M
            off_n = (tile % num_pid_n) * BLOCK_N
            for k in range(0, num_k):
                s = it % NUM_STAGES
                txl.mbar_wait(txl.get_buffer(empty, s),
                              ((it // NUM_STAGES) & 1) ^ 1)
                bar = txl.get_buffer(full, s)
                txl.mbar_expect(bar, SLICE_BYTES)
                txl.tma_load(txl.get_buffer(sA, s), a_desc,
                             [off_m, k * BLOCK_K], bar)
                txl.tma_load(txl.get_buffer(sB, s), bt_desc,
                             [off_n, k * BLOCK_K], bar)
                it += 1

    if txl.is_warp([1]):
        # MMA ISSUER: one thread of this warp issues every tcgen05.mma.
        it = 0
        t = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
            ab = t % NUM_ACC
            txl.mbar_wait(txl.get_buffer(acc_free, ab),
                          ((t // NUM_ACC) & 1) ^ 1)
            acc = txl.get_buffer(acc_bufs, ab)
            for k in range(0, num_k):
                s = it % NUM_STAGES
                txl.mbar_wait(txl.get_buffer(full, s), (it // NUM_STAGES) & 1)
                a = txl.get_buffer(sA, s)
                b = txl.get_buffer(sB, s).T
                if k == num_k - 1:
                    txl.dotx(a, b, acc, useD=k > 0,
                             mbars=[txl.get_buffer(empty, s),
                                    txl.get_buffer(acc_ready, ab)])
                else:
                    txl.dotx(a, b, acc, useD=k > 0,
                             mbars=[txl.get_buffer(empty, s)])
                it += 1
            t += 1

    if txl.is_warpgroup([1]):
        # WRITEBACK: TMEM -> registers -> shared -> TMA store.
        t = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_SMS):
            off_m = (tile // num_pid_n) * BLOCK_M
            off_n = (tile % num_pid_n) * BLOCK_N
            ab = t % NUM_ACC
            txl.mbar_wait(txl.get_buffer(acc_ready, ab), (t // NUM_ACC) & 1)
            c = txl.tmem_load(txl.get_buffer(acc_bufs, ab))
            txl.mbar_arrive(txl.get_buffer(acc_free, ab))
            # The previous tile's TMA store must have read sC.
            txl.tma_store_wait(0)
            txl.smem_store(sC, c.to(tl.float16))
            txl.tma_store(sC, c_desc, [off_m, off_n])
            t += 1
        txl.tma_store_wait(0)

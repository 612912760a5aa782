"""Blackwell GEMM ladder, step 7: warp specialization - a TMA warp, an MMA
warp and a writeback warpgroup, persistent over the tiles.

    C[M, N] = A[M, K] @ B[K, N],  grid = (NUM_SMS,), num_warps=4, num_warpgroups=2

On Blackwell the tensor core needs neither registers nor a warpgroup: one
thread issues each MMA. So the roles shrink (warpgroup 0's warps 2 and 3
idle):

* warp 0, the producer: for every slice of every tile it waits until the
  ring stage is free, announces the bytes and issues the two TMA copies;
* warp 1, the MMA issuer: it waits for each slice and issues `txl.dotx`
  (one elected thread: the compiler picks the role's first warp and
  `elect.sync`), committing the MMA to the stage's `empty` barrier; the
  tile's last MMA also commits to `acc_ready`;
* warpgroup 1 (warps 4-7), the writeback: it waits for `acc_ready`, reads
  the accumulator from tensor memory (warp 4 + q reads TMEM lanes 32q..,
  the lane quarter its index within the warpgroup allows), arrives on
  `acc_free` (all 128 threads) and stores the tile with TMA.

Four barrier kinds, each with the arrival count of what arrives on it:

  full[s]    data ready   1 (the producer's expect) + the boxes' bytes
  empty[s]   smem free    1 (tcgen05.commit of the MMA that read stage s)
  acc_ready  acc ready    1 (tcgen05.commit of the tile's last MMA)
  acc_free   acc free     128 (every writeback thread, after its tmem_load)

Producer and MMA warp walk the same (tile, k) sequence, so both count
slices with one counter `it`: stage it % NUM_STAGES, parity
(it // NUM_STAGES) & 1; the producer's "free" waits start at parity 1 (the
ring starts empty). The MMA warp waits for `acc_free` with parity
(t & 1) ^ 1 before the first MMA of tile t (the epilogue of tile t - 1
must have read the accumulator), the writeback for `acc_ready` with t & 1.
`txl.tmem_load` fences before the arrival on `acc_free`
(tcgen05.fence::before_thread_sync), the MMA after its wait
(after_thread_sync). Before the kernel exits, the compiler synchronizes the
whole CTA and frees the tensor memory.

The ring has two stages and the accumulator is one TMEM buffer, so the
next tile's MMAs wait for the writeback; step 8 deepens the ring and
double-buffers the accumulator so that they overlap.
"""
import triton.language as tl
import txl

NUM_STAGES = 2


@txl.jit
def gemm_bw_step07(a_desc, bt_desc, c_desc, M, N, K, NUM_SMS,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    empty = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    acc_ready = txl.get_buffer(txl.mbar_alloc(1), 0)
    acc_free = txl.get_buffer(txl.mbar_alloc(128), 0)
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
            txl.mbar_wait(acc_free, (t & 1) ^ 1)
            for k in range(0, num_k):
                s = it % NUM_STAGES
                txl.mbar_wait(txl.get_buffer(full, s), (it // NUM_STAGES) & 1)
                a = txl.get_buffer(sA, s)
                b = txl.get_buffer(sB, s).T
                if k == num_k - 1:
                    txl.dotx(a, b, acc, useD=k > 0,
                             mbars=[txl.get_buffer(empty, s), acc_ready])
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
            txl.mbar_wait(acc_ready, t & 1)
            c = txl.tmem_load(acc)
            txl.mbar_arrive(acc_free)
            # The previous tile's TMA store must have read sC.
            txl.tma_store_wait(0)
            txl.smem_store(sC, c.to(tl.float16))
            txl.tma_store(sC, c_desc, [off_m, off_n])
            t += 1
        txl.tma_store_wait(0)

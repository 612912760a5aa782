"""Blackwell GEMM ladder, step 10: two MMA consumers per CTA pair, a
512 x 256 tile per cluster.

    C[M, N] = A[M, K] @ B[K, N],  grid = (NUM_CLUSTERS,), num_ctas=2,
    num_warps=4, num_warpgroups=3

Step 9's pair of CTAs issues one 2-SM MMA stream; its B half is reused by
only 128 rows of A per CTA. Here each stage holds *two* A blocks per CTA
and one B half, and two MMA warps consume them: consumer c multiplies A
block c by the (pair's) B into its own accumulator. Per CTA the tile is
now 256 x 256 (the cluster's 512 x 256), so every B byte loaded feeds
twice as many MMAs.

Roles (three warpgroups, 12 warps):
- warp 8 (the first of warpgroup 2): the TMA producer (two A blocks and
  the B half per stage; TMA copies and expects are issued by a
  warpgroup's first thread);
- warps 9 and 10: MMA consumers 0 and 1 (CTA 0's elected threads issue
  for the pair, as in step 9);
- warpgroups 0 and 1: the writeback of consumer 0's and 1's accumulator.

Tensor memory: each consumer's accumulator is [128, 256] fp32, the two
together all 512 columns, so there is no room to double-buffer them: the
epilogue of tile t and the MMAs of tile t + 1 overlap across the two
consumers instead (while writeback 0 drains, consumer 1 may still be
computing, and vice versa).

Barriers:
- `full[s]` (CTA 0, count 1): the bytes of both CTAs' two A blocks and B
  half, `2 * (2 * BLOCK_M + HALF_N) * BLOCK_K * 2`;
- `empty[s]` (count 2): one multicast commit from each consumer;
- `acc_ready[c]` (count 1): consumer c's last commit of a tile, multicast;
- `acc_free[c]` (CTA 0, count 2 x 128): writeback c of both CTAs.
Each consumer's acc barriers count its own tiles: parity t & 1.

Shared memory: three stages of 2 x 16 KB (A) + 16 KB (B), and a 16 KB C
chunk buffer per writeback warpgroup: 176 KB.
"""
import triton.language as tl
import txl

NUM_STAGES = 3
NUM_CONSUMERS = 2


@txl.jit
def gemm_bw_step10(a_desc, bt_half_desc, c_desc, M, N, K, NUM_CLUSTERS,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, EPI_N: tl.constexpr):
    HALF_N: tl.constexpr = BLOCK_N // 2
    # Stage s holds A blocks 2s (consumer 0) and 2s + 1 (consumer 1).
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES * NUM_CONSUMERS)
    sB = txl.smem_alloc([HALF_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sC = txl.smem_alloc([BLOCK_M, EPI_N], dtype=tl.float16,
                        num_stages=NUM_CONSUMERS)
    acc_bufs = txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32,
                              num_stages=NUM_CONSUMERS)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)  # used in CTA 0
    empty = txl.mbar_alloc(NUM_CONSUMERS, num_stages=NUM_STAGES)
    acc_ready = txl.mbar_alloc(1, num_stages=NUM_CONSUMERS)
    acc_free = txl.mbar_alloc(2 * 128, num_stages=NUM_CONSUMERS)  # CTA 0
    PAIR_SLICE_BYTES: tl.constexpr = (
        2 * (NUM_CONSUMERS * BLOCK_M + HALF_N) * BLOCK_K * 2)

    rank = txl.cta_rank()
    num_pid_n = tl.cdiv(N, BLOCK_N)
    # A cluster tile: 2 consumers x 2 CTAs x BLOCK_M rows.
    CLUSTER_M: tl.constexpr = NUM_CONSUMERS * 2 * BLOCK_M
    num_tiles = tl.cdiv(M, CLUSTER_M) * num_pid_n
    num_k = tl.cdiv(K, BLOCK_K)

    if txl.is_warp([8]):
        # PRODUCER: consumer c's rows of this CTA are
        # off_m + c * 2 * BLOCK_M + rank * BLOCK_M (consumer c's 2-SM MMA
        # covers 256 rows, 128 in each CTA).
        it = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
            off_m = (tile // num_pid_n) * CLUSTER_M + rank * BLOCK_M
            off_n = (tile % num_pid_n) * BLOCK_N + rank * HALF_N
            for k in range(0, num_k):
                s = it % NUM_STAGES
                txl.mbar_wait(txl.get_buffer(empty, s),
                              ((it // NUM_STAGES) & 1) ^ 1)
                bar = txl.get_buffer(full, s)
                txl.mbar_expect(bar, PAIR_SLICE_BYTES, pred=rank == 0)
                for c in tl.static_range(NUM_CONSUMERS):
                    txl.tma_load(txl.get_buffer(sA, s * NUM_CONSUMERS + c),
                                 a_desc,
                                 [off_m + c * 2 * BLOCK_M, k * BLOCK_K], bar,
                                 two_ctas=True)
                txl.tma_load(txl.get_buffer(sB, s), bt_half_desc,
                             [off_n, k * BLOCK_K], bar, two_ctas=True)
                it += 1

    for c in tl.static_range(NUM_CONSUMERS):
        if txl.is_warp([9 + c]):
            # MMA CONSUMER c (CTA 0 issues for the pair).
            if rank == 0:
                it = 0
                t = 0
                for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
                    txl.mbar_wait(txl.get_buffer(acc_free, c), (t & 1) ^ 1)
                    acc = txl.get_buffer(acc_bufs, c)
                    for k in range(0, num_k):
                        s = it % NUM_STAGES
                        txl.mbar_wait(txl.get_buffer(full, s),
                                      (it // NUM_STAGES) & 1)
                        a = txl.get_buffer(sA, s * NUM_CONSUMERS + c)
                        b = txl.get_buffer(sB, s).T
                        if k == num_k - 1:
                            txl.dotx(a, b, acc, useD=k > 0,
                                     mbars=[txl.get_buffer(empty, s),
                                            txl.get_buffer(acc_ready, c)],
                                     two_ctas=True)
                        else:
                            txl.dotx(a, b, acc, useD=k > 0,
                                     mbars=[txl.get_buffer(empty, s)],
                                     two_ctas=True)
                        it += 1
                    t += 1

    for c in tl.static_range(NUM_CONSUMERS):
        if txl.is_warpgroup([c]):
            # WRITEBACK c: consumer c's 128 rows of this CTA.
            t = 0
            buf = txl.get_buffer(sC, c)
            for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
                off_m = ((tile // num_pid_n) * CLUSTER_M + c * 2 * BLOCK_M +
                         rank * BLOCK_M)
                off_n = (tile % num_pid_n) * BLOCK_N
                txl.mbar_wait(txl.get_buffer(acc_ready, c), t & 1)
                acc = txl.get_buffer(acc_bufs, c)
                for j in tl.static_range(BLOCK_N // EPI_N):
                    v = txl.tmem_load(txl.tmem_slice(acc, j * EPI_N, EPI_N))
                    txl.tma_store_wait(0)
                    txl.smem_store(buf, v.to(tl.float16))
                    txl.tma_store(buf, c_desc, [off_m, off_n + j * EPI_N])
                txl.mbar_arrive(txl.get_buffer(acc_free, c), cta_id=0)
                t += 1
            txl.tma_store_wait(0)

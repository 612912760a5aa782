"""Blackwell GEMM ladder, step 9: a cluster of two CTAs runs 2-SM MMAs
(tcgen05 cta_group::2), M = 256 x N = 256 per instruction.

    C[M, N] = A[M, K] @ B[K, N],  grid = (NUM_CLUSTERS,), num_ctas=2,
    num_warps=4, num_warpgroups=2

Step 8's roles and barriers, but two CTAs on neighbouring SMs now work as
one. Launch `num_ctas=2`: a program is a cluster of two CTAs,
`tl.program_id(0)` counts clusters and `txl.cta_rank()` (0 or 1) tells the
CTAs apart. The cluster owns a 256 x 256 tile of C; CTA r owns its rows
off_m + 128 * r, all 256 columns.

The 2-SM MMA. `txl.dotx(a, b, acc, two_ctas=True)` is one
`tcgen05.mma.cta_group::2` of M = 256: each CTA's tensor core multiplies
its own 128 rows of A (in its own shared memory) by all 256 columns of B,
into its own tensor memory. B is split between the CTAs: each loads only
its 128 columns (`b` is [BLOCK_K, 128], this CTA's half), and the hardware
reads the peer's half at the same shared-memory offset. So each CTA loads
half of B but computes against all of it: the B traffic per output element
halves, as with step 9 of the Hopper ladder's multicast, without copying
anything twice. Only the even CTA of the pair issues the instruction (the
compiler adds `cta_rank % 2 == 0` to the issuing thread's predicate); the
odd CTA's MMA warp has nothing to do.

What a pair changes in the protocol:
- data-ready (`full`, count 1): the MMA, issued by CTA 0, reads both CTAs'
  stages, so CTA 0 must learn when *both* have landed.
  `tma_load(..., two_ctas=True)` counts the bytes on the barrier at the same
  offset in CTA 0 (`cp.async.bulk.tensor...cta_group::2` with CTA 0's
  barrier address), and CTA 0 alone expects the bytes of both CTAs:
  `mbar_expect(bar, 2 * stage bytes, pred=rank == 0)`.
- smem-free (`empty`) and acc-ready (`acc_ready`): the MMA's commit is
  multicast (`tcgen05.commit.cta_group::2...multicast::cluster`, mask
  0b11): both CTAs' producers learn that their stage may be refilled, both
  CTAs' writebacks that their half of the accumulator is ready.
- acc-free (`acc_free`): only CTA 0 issues the next tile's MMAs, so both
  CTAs' writeback warpgroups arrive on CTA 0's barrier
  (`mbar_arrive(bar, cta_id=0)`): count 2 x 128.

Tensor memory: the accumulator is [128, 256] fp32 per CTA, two of them
(double-buffered as in step 8): all 512 columns. The compiler allocates it
with `tcgen05.alloc.cta_group::2` (a kernel's tcgen05 instructions must all
name the same CTA group) and frees it after a *cluster* barrier: the peer's
MMAs write this CTA's tensor memory.

Writeback: 256 fp32 columns are 256 registers per thread, more than a
thread has, so the accumulator is read back in EPI_N-column chunks
(`txl.tmem_slice(acc, j * EPI_N, EPI_N)`), each converted, staged in one of
two shared tiles and TMA-stored while the next chunk is read.

Both CTAs walk the same tiles and slices (their producers feed one MMA), so
ragged edges are left to TMA (zero fill, clipped stores).
"""
import triton.language as tl
import txl

NUM_STAGES = 4
NUM_ACC = 2


@txl.jit
def gemm_bw_step09(a_desc, bt_half_desc, c_desc, M, N, K, NUM_CLUSTERS,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, EPI_N: tl.constexpr):
    # BLOCK_M: rows per CTA (128); BLOCK_N: the MMA's N (256), of which
    # each CTA loads HALF_N rows of B^T.
    HALF_N: tl.constexpr = BLOCK_N // 2
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([HALF_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sC = txl.smem_alloc([BLOCK_M, EPI_N], dtype=tl.float16, num_stages=2)
    acc_bufs = txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32,
                              num_stages=NUM_ACC)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)  # used in CTA 0
    empty = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    acc_ready = txl.mbar_alloc(1, num_stages=NUM_ACC)
    acc_free = txl.mbar_alloc(2 * 128, num_stages=NUM_ACC)  # used in CTA 0
    # Both CTAs' A slice and B half land before CTA 0's MMA may read them.
    PAIR_SLICE_BYTES: tl.constexpr = 2 * (BLOCK_M + HALF_N) * BLOCK_K * 2

    rank = txl.cta_rank()
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, 2 * BLOCK_M) * num_pid_n
    num_k = tl.cdiv(K, BLOCK_K)

    if txl.is_warp([0]):
        # PRODUCER (both CTAs): this CTA's A rows and its half of B.
        it = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
            off_m = (tile // num_pid_n) * (2 * BLOCK_M) + rank * BLOCK_M
            off_n = (tile % num_pid_n) * BLOCK_N + rank * HALF_N
            for k in range(0, num_k):
                s = it % NUM_STAGES
                txl.mbar_wait(txl.get_buffer(empty, s),
                              ((it // NUM_STAGES) & 1) ^ 1)
                bar = txl.get_buffer(full, s)
                txl.mbar_expect(bar, PAIR_SLICE_BYTES, pred=rank == 0)
                txl.tma_load(txl.get_buffer(sA, s), a_desc,
                             [off_m, k * BLOCK_K], bar, two_ctas=True)
                txl.tma_load(txl.get_buffer(sB, s), bt_half_desc,
                             [off_n, k * BLOCK_K], bar, two_ctas=True)
                it += 1

    if txl.is_warp([1]):
        # MMA ISSUER: CTA 0's elected thread issues for the pair.
        if rank == 0:
            it = 0
            t = 0
            for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
                ab = t % NUM_ACC
                txl.mbar_wait(txl.get_buffer(acc_free, ab),
                              ((t // NUM_ACC) & 1) ^ 1)
                acc = txl.get_buffer(acc_bufs, ab)
                for k in range(0, num_k):
                    s = it % NUM_STAGES
                    txl.mbar_wait(txl.get_buffer(full, s),
                                  (it // NUM_STAGES) & 1)
                    a = txl.get_buffer(sA, s)
                    b = txl.get_buffer(sB, s).T  # [BLOCK_K, HALF_N]
                    if k == num_k - 1:
                        txl.dotx(a, b, acc, useD=k > 0,
                                 mbars=[txl.get_buffer(empty, s),
                                        txl.get_buffer(acc_ready, ab)],
                                 two_ctas=True)
                    else:
                        txl.dotx(a, b, acc, useD=k > 0,
                                 mbars=[txl.get_buffer(empty, s)],
                                 two_ctas=True)
                    it += 1
                t += 1

    if txl.is_warpgroup([1]):
        # WRITEBACK (both CTAs): this CTA's 128 rows, in EPI_N-column chunks.
        t = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
            off_m = (tile // num_pid_n) * (2 * BLOCK_M) + rank * BLOCK_M
            off_n = (tile % num_pid_n) * BLOCK_N
            ab = t % NUM_ACC
            txl.mbar_wait(txl.get_buffer(acc_ready, ab), (t // NUM_ACC) & 1)
            acc = txl.get_buffer(acc_bufs, ab)
            for j in tl.static_range(BLOCK_N // EPI_N):
                c = txl.tmem_load(txl.tmem_slice(acc, j * EPI_N, EPI_N))
                buf = txl.get_buffer(sC, j % 2)
                # The store issued from this buffer two chunks ago is done.
                txl.tma_store_wait(1)
                txl.smem_store(buf, c.to(tl.float16))
                txl.tma_store(buf, c_desc, [off_m, off_n + j * EPI_N])
            # Every TMEM read of this accumulator is done (and fenced):
            # CTA 0's MMA warp may overwrite it.
            txl.mbar_arrive(txl.get_buffer(acc_free, ab), cta_id=0)
            t += 1
        txl.tma_store_wait(0)

"""GEMM ladder, step 9: a 2-CTA cluster shares its B tiles by TMA multicast.

    C[M, N] = A[M, K] @ B[K, N],  M, N, K >= 1 (row strides 16-byte aligned)

Step 8 has every CTA load both operands of its tile. Two CTAs working on
tiles in the same column of C -- rows off_m and off_m + BLOCK_M, the same
off_n -- load the very same B^T slice, each from L2. Hopper groups CTAs
into *thread-block clusters* that run at the same time on neighbouring SMs
and can reach each other's shared memory; a TMA load can *multicast*: one
request reads global memory once and writes the box into the shared memory
of several CTAs of the cluster, at the same offset in each.

Launch: `num_ctas=2`. A program is now a cluster of two CTAs: the grid
counts clusters, `tl.program_id(0)` is the cluster's index and
`txl.cta_rank()` (0 or 1) tells the two CTAs apart. The cluster owns a
(2 * BLOCK_M) x BLOCK_N tile of C; CTA r computes rows off_m + r * BLOCK_M.

Loads. Each CTA still loads its own A slice. The B^T slice [BLOCK_N,
BLOCK_K] is split in two halves of BLOCK_N / 2 rows: CTA r loads half r and
multicasts it to both CTAs (`multicast=0b11`), so each CTA issues half the
B traffic and receives all of it. The descriptor's block is the half,
[BLOCK_N / 2, BLOCK_K]; the halves land in `smem_slice`s of the stage.

Barriers -- what a cluster changes:
- data-ready (`full`, count 1): each CTA's producer expects the bytes of
  its whole stage, A plus *all* of B, because the peer's multicast counts
  its bytes on this CTA's barrier at the same offset. The peer's bytes may
  even arrive before the local expect: the phase cannot complete before
  the local producer's arrival, so nothing is lost.
- smem-free (`empty`): a stage of CTA 0 is written by both producers (its
  own A and B half, CTA 1's multicast B half), so a producer may refill
  stage s only when the MMA warpgroups of *both* CTAs are done with their
  stage s. Each MMA warp arrives (one lane, after its dot_wait) on its own
  CTA's barrier and on the peer's (`mbar_arrive(bar, cta_id=peer)`, a
  remote arrive through distributed shared memory): count 2 CTAs x 4 warps.
- acc-ready / acc-free stay local (each CTA's epilogue reads only its own
  accumulator).

The compiler adds the two cluster-wide synchronizations a cluster kernel
needs: after the mbarriers are initialized (a peer must not multicast into
or arrive on barriers that do not exist yet) and before the CTAs exit (a
CTA must not leave while its peer can still write to its shared memory).

Both CTAs of a cluster must walk the same tiles and slices -- their
producers feed each other -- so ragged edges are handled by TMA (zero
fill, clipped stores), never by skipping work: a CTA whose rows lie
entirely below M still loads (zeros) and multicasts its B half.

Registers and shared memory are step 8's.
"""
import triton.language as tl
import txl


@txl.jit
def gemm_step09(a_desc, bt_half_desc, c_desc, M, N, K, NUM_CLUSTERS,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                NUM_STAGES: tl.constexpr):
    HALF_N: tl.constexpr = BLOCK_N // 2
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16,
                        num_stages=NUM_STAGES)
    sAcc = txl.get_buffer(
        txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    # One arrival per MMA warp of each of the two CTAs.
    empty = txl.mbar_alloc(2 * 4, num_stages=NUM_STAGES)
    acc_ready = txl.get_buffer(txl.mbar_alloc(128), 0)
    acc_free = txl.get_buffer(txl.mbar_alloc(128), 0)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2
    SMEM_BYTES: tl.constexpr = (NUM_STAGES * SLICE_BYTES
                                + BLOCK_M * BLOCK_N * (4 + 2) + 1024)
    tl.static_assert(SMEM_BYTES <= 232448,
                     "NUM_STAGES stages of these blocks exceed the 227 KB "
                     "of shared memory a CTA may have")

    rank = txl.cta_rank()
    # Cluster tiles: two CTA tiles stacked along M.
    num_pid_m = tl.cdiv(M, 2 * BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    num_k = tl.cdiv(K, BLOCK_K)
    group_tiles = GROUP_M * num_pid_n

    if txl.is_warpgroup([0]):
        # PRODUCER: its own A, and half of B for both CTAs.
        txl.reg_dealloc(40)
        it = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
            group = tile // group_tiles
            first_m = group * GROUP_M
            rows = tl.minimum(num_pid_m - first_m, GROUP_M)
            inner = tile - group * group_tiles
            off_m = (first_m + inner % rows) * 2 * BLOCK_M + rank * BLOCK_M
            off_n = (inner // rows) * BLOCK_N
            for k in range(0, num_k):
                s = it % NUM_STAGES
                # smem-free in both CTAs of the cluster.
                txl.mbar_wait(txl.get_buffer(empty, s),
                              ((it // NUM_STAGES) & 1) ^ 1)
                bar = txl.get_buffer(full, s)
                txl.mbar_expect(bar, SLICE_BYTES)
                txl.tma_load(txl.get_buffer(sA, s), a_desc,
                             [off_m, k * BLOCK_K], bar)
                stage_b = txl.get_buffer(sB, s)
                if rank == 0:
                    txl.tma_load(txl.smem_slice(stage_b, 0, HALF_N, 0),
                                 bt_half_desc, [off_n, k * BLOCK_K], bar,
                                 multicast=0b11)
                else:
                    txl.tma_load(txl.smem_slice(stage_b, HALF_N, HALF_N, 0),
                                 bt_half_desc, [off_n + HALF_N, k * BLOCK_K],
                                 bar, multicast=0b11)
                it += 1

    if txl.is_warpgroup([1]):
        # MMA: as in step 8, but a stage is freed in both CTAs.
        txl.reg_alloc(232)
        peer = rank ^ 1
        lane0 = txl.lane_id() == 0
        it = 0
        t = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
            acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
            for k in range(0, num_k):
                s = it % NUM_STAGES
                txl.mbar_wait(txl.get_buffer(full, s), (it // NUM_STAGES) & 1)
                acc = tl.dot(txl.get_buffer(sA, s), txl.get_buffer(sB, s).T,
                             acc)
                txl.dot_wait(1)
                if k > 0:
                    # The previous slice's wgmma has retired in this warp
                    # (wgmma waits are warp-wide): one lane speaks for it.
                    done = txl.get_buffer(
                        empty, (it + NUM_STAGES - 1) % NUM_STAGES)
                    txl.mbar_arrive(done, pred=lane0)
                    txl.mbar_arrive(done, pred=lane0, cta_id=peer)
                it += 1
            txl.dot_wait(0)
            done = txl.get_buffer(empty, (it + NUM_STAGES - 1) % NUM_STAGES)
            txl.mbar_arrive(done, pred=lane0)
            txl.mbar_arrive(done, pred=lane0, cta_id=peer)
            txl.mbar_wait(acc_free, (t & 1) ^ 1)
            txl.smem_store(sAcc, acc)
            txl.mbar_arrive(acc_ready)
            t += 1

    if txl.is_warpgroup([2]):
        # EPILOGUE: this CTA's own rows, exactly as in step 8.
        txl.reg_alloc(232)
        t = 0
        for tile in range(tl.program_id(0), num_tiles, NUM_CLUSTERS):
            group = tile // group_tiles
            first_m = group * GROUP_M
            rows = tl.minimum(num_pid_m - first_m, GROUP_M)
            inner = tile - group * group_tiles
            off_m = (first_m + inner % rows) * 2 * BLOCK_M + rank * BLOCK_M
            off_n = (inner // rows) * BLOCK_N
            txl.mbar_wait(acc_ready, t & 1)
            acc = txl.smem_load(sAcc)
            txl.mbar_arrive(acc_free)
            txl.tma_store_wait(0)
            txl.smem_store(sC, acc.to(tl.float16))
            txl.tma_store(sC, c_desc, [off_m, off_n])
            t += 1
        txl.tma_store_wait(0)

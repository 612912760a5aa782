"""The flagship Hopper GEMM: warp-specialized, persistent, TMA in and out.

    C[M, N] = A[M, K] @ B[K, N]   (fp16 or bf16 in, fp32 accumulate)

A and B are ordinary row-major tensors (B is N-major: wgmma reads it with
its transpose bit, no copy). Row strides must be 16-byte aligned for TMA.

Three warpgroups per CTA (num_warps=4, num_warpgroups=3):
- warpgroup 0, the producer, gives up registers (reg_dealloc) and only
  issues TMA: for every K slice it waits until the stage is free, announces
  the bytes on the stage's `full` barrier and loads an A tile [BM, BK] and a
  B tile [BK, BN] into it;
- warpgroups 1 and 2, the consumers, take registers (reg_alloc) and each
  owns one half of the CTA tile: rows [0, BM/2) and [BM/2, BM). They wait
  for a stage, run wgmma on it, and release the stage they used one slice
  earlier once `dot_wait(1)` says its wgmma has retired (so the tensor core
  always has one group queued while the producer refills).

The CTA walks output tiles persistently (grid = number of SMs) in grouped
order (GROUP_M tile rows at a time, for L2 reuse). Both roles count K slices
with one running counter `it`: slice `it` lives in stage it % STAGES and
the barrier parity of its round is (it // STAGES) & 1, so the two sides can
never drift apart (REFERENCE §3: the producer's first wait on `empty` uses
the flipped parity and passes at once).

The epilogue of each consumer converts its accumulator to the output type,
writes it to its own shared C tile and TMA-stores it. The store runs while
the next tile's K loop does; the consumer waits for it (tma_store_wait(0))
only right before it rewrites that C tile.

CLUSTER=2 (launch with num_ctas=2) pairs CTAs into clusters that own two
tiles stacked along M with the same columns: they need the same B tiles, so
CTA r loads columns [r*BN/2, (r+1)*BN/2) of each B slice and multicasts
them to both (halving the B traffic from L2), expects its whole stage on
its own `full` barrier (the peer's half counts there too), and each
consumer frees a stage in both CTAs (`empty` hears 2 consumers x 2 CTAs).
The B descriptor's block is then [BK, BN/2]; the grid counts clusters.
See ladder step 9 for the protocol.

B_T=True takes B as its transpose B^T [N, K] (b_desc block [BN, BK]): the
stages hold K-major B tiles that the consumers read through `.T`. fp8
(e4m3/e5m2) needs it -- 8-bit wgmma reads both operands K-major -- so the
fp8 flagship is `gemm_ws(..., B_T=True)` on fp8 A and B^T with BK=128 (one
128-byte swizzle row) and an fp16/bf16 C.

SPLIT=2 stores each consumer's [BM/2, BN] result as two column halves
through a C tile half as wide: `acc.reshape([HM, 2, BN // 2]).permute(0, 2,
1).split()` (Triton's epilogue idiom) picks registers and moves no data,
and the second half waits only until the first one's TMA store has read
the tile. The C tiles shrink from 64 KB to 32 KB, which makes room for a
fourth operand stage at 128x256x64: on the H100 that is the fastest
configuration (bench/RESULTS.md).

Shared memory: STAGES * (BM*BK + BK*BN) * 2 bytes of operands plus
2 * (BM/2) * (BN/SPLIT) * 2 bytes of C tiles (BM=128, BN=256, BK=64:
STAGES=3, SPLIT=1: 144 KB + 64 KB; STAGES=4, SPLIT=2: 192 KB + 32 KB).
"""
import triton.language as tl
import txl


@txl.jit
def tile_coords(tile, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    per_group = GROUP_M * num_pid_n
    group = tile // per_group
    first_m = group * GROUP_M
    rows = tl.minimum(num_pid_m - first_m, GROUP_M)
    inner = tile - group * per_group
    return first_m + inner % rows, inner // rows


@txl.jit
def release(bar, leader, CLUSTER: tl.constexpr):
    txl.mbar_arrive(bar, pred=leader)
    if CLUSTER == 2:
        # The peer's producer multicasts into this stage of ours too.
        txl.mbar_arrive(bar, pred=leader, cta_id=txl.cta_rank() ^ 1)


@txl.jit
def b_coords(kk, n0, BK: tl.constexpr, B_T: tl.constexpr):
    """Where B's K slice kk, columns from n0, starts in b_desc's tensor."""
    if B_T:
        return [n0, kk * BK]  # b_desc is over B^T [N, K]
    return [kk * BK, n0]


@txl.jit
def load_b(stage, b_desc, kk, pid_n, bar, rank, BK: tl.constexpr,
           BN: tl.constexpr, CLUSTER: tl.constexpr, B_T: tl.constexpr):
    """B's slice into `stage`: all of it, or with CLUSTER=2 this CTA's half
    of the columns, multicast to both CTAs of the cluster."""
    HN: tl.constexpr = BN // CLUSTER
    N_DIM: tl.constexpr = 0 if B_T else 1  # the stage's N dimension
    if CLUSTER == 1:
        txl.tma_load(stage, b_desc, b_coords(kk, pid_n * BN, BK, B_T), bar)
    elif rank == 0:
        txl.tma_load(txl.smem_slice(stage, 0, HN, N_DIM), b_desc,
                     b_coords(kk, pid_n * BN, BK, B_T), bar, multicast=0b11)
    else:
        txl.tma_load(txl.smem_slice(stage, HN, HN, N_DIM), b_desc,
                     b_coords(kk, pid_n * BN + HN, BK, B_T), bar,
                     multicast=0b11)


@txl.jit
def produce(a_bufs, b_bufs, full, empty, a_desc, b_desc, M, N, K, NUM_SMS,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
            STAGES: tl.constexpr, GROUP_M: tl.constexpr,
            CLUSTER: tl.constexpr, B_T: tl.constexpr):
    """The producer warpgroup: every K slice of every tile of this CTA, in
    order, into the stage ring."""
    ELEM_BYTES: tl.constexpr = a_desc.dtype.primitive_bitwidth // 8
    num_pid_m = tl.cdiv(M, BM * CLUSTER)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    rank = txl.cta_rank() if CLUSTER == 2 else 0
    it = 0
    for tile in range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS):
        pid_m, pid_n = tile_coords(tile, num_pid_m, num_pid_n, GROUP_M)
        pid_m = pid_m * CLUSTER + rank
        for kk in range(k_tiles):
            s = it % STAGES
            txl.mbar_wait(txl.get_buffer(empty, s), ((it // STAGES) & 1) ^ 1)
            bar = txl.get_buffer(full, s)
            txl.mbar_expect(bar, (BM * BK + BK * BN) * ELEM_BYTES)
            txl.tma_load(txl.get_buffer(a_bufs, s), a_desc,
                         [pid_m * BM, kk * BK], bar)
            load_b(txl.get_buffer(b_bufs, s), b_desc, kk, pid_n, bar, rank,
                   BK, BN, CLUSTER, B_T)
            it += 1


@txl.jit
def mma_slice(a_bufs, b_bufs, full, empty, acc, it, kk, leader,
              HM: tl.constexpr, STAGES: tl.constexpr, HALF: tl.constexpr,
              CLUSTER: tl.constexpr, B_T: tl.constexpr):
    """Slice `it` (the tile's kk-th): wait for its stage, queue its wgmma on
    this consumer's half of A, and free the previous slice's stage once
    dot_wait(1) has retired the wgmma that read it."""
    s = it % STAGES
    txl.mbar_wait(txl.get_buffer(full, s), (it // STAGES) & 1)
    a = txl.smem_slice(txl.get_buffer(a_bufs, s), HALF * HM, HM, 0)
    b = txl.get_buffer(b_bufs, s)
    if B_T:
        b = b.T  # a K-major [BN, BK] stage read as [BK, BN]
    acc = tl.dot(a, b, acc)
    txl.dot_wait(1)
    if kk > 0:
        release(txl.get_buffer(empty, (it + STAGES - 1) % STAGES), leader,
                CLUSTER)
    return acc


@txl.jit
def store_c(c_tile, c_desc, acc, row, col):
    """acc through the C tile to C[row:, col:] by TMA. The tile's previous
    store must have read it first (tma_store_wait waits for the read only);
    the store itself runs on while the caller goes on."""
    txl.tma_store_wait(0)
    txl.smem_store(c_tile, acc.to(c_desc.dtype))
    txl.tma_store(c_tile, c_desc, [row, col])


@txl.jit
def consume(a_bufs, b_bufs, c_tile, full, empty, c_desc, M, N, K, NUM_SMS,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
            STAGES: tl.constexpr, GROUP_M: tl.constexpr, HALF: tl.constexpr,
            CLUSTER: tl.constexpr, B_T: tl.constexpr, PROMOTE: tl.constexpr,
            SPLIT: tl.constexpr):
    HM: tl.constexpr = BM // 2
    num_pid_m = tl.cdiv(M, BM * CLUSTER)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    leader = txl.tid(0) % 128 == 0  # releases stages for the warpgroup
    rank = txl.cta_rank() if CLUSTER == 2 else 0
    it = 0
    for tile in range(tl.program_id(0), num_pid_m * num_pid_n, NUM_SMS):
        pid_m, pid_n = tile_coords(tile, num_pid_m, num_pid_n, GROUP_M)
        pid_m = pid_m * CLUSTER + rank
        if PROMOTE > 0:
            # fp8 wgmma keeps its running sum with fewer mantissa bits than
            # fp32: sum PROMOTE slices at a time, then fold them into an
            # fp32 total, so the error does not grow with all of K.
            total = tl.zeros([HM, BN], dtype=tl.float32)
            for kg in range(0, k_tiles, PROMOTE):
                acc = tl.zeros([HM, BN], dtype=tl.float32)
                for kk in range(kg, tl.minimum(kg + PROMOTE, k_tiles)):
                    acc = mma_slice(a_bufs, b_bufs, full, empty, acc, it, kk,
                                    leader, HM, STAGES, HALF, CLUSTER, B_T)
                    it += 1
                txl.dot_wait(0)
                total += acc
            acc = total
        else:
            acc = tl.zeros([HM, BN], dtype=tl.float32)
            for kk in range(k_tiles):
                acc = mma_slice(a_bufs, b_bufs, full, empty, acc, it, kk,
                                leader, HM, STAGES, HALF, CLUSTER, B_T)
                it += 1
            txl.dot_wait(0)
        release(txl.get_buffer(empty, (it + STAGES - 1) % STAGES), leader,
                CLUSTER)
        row = pid_m * BM + HALF * HM
        if SPLIT == 2:
            # The column halves of the accumulator (Triton's epilogue
            # idiom; no data moves: each half is a choice of registers),
            # one after the other through a C tile half as wide.
            left, right = acc.reshape([HM, 2, BN // 2]).permute(0, 2,
                                                                1).split()
            store_c(c_tile, c_desc, left, row, pid_n * BN)
            store_c(c_tile, c_desc, right, row, pid_n * BN + BN // 2)
        else:
            store_c(c_tile, c_desc, acc, row, pid_n * BN)
    txl.tma_store_wait(0)


@txl.jit
def gemm_ws(a_desc, b_desc, c_desc, M, N, K, NUM_SMS,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
            STAGES: tl.constexpr, GROUP_M: tl.constexpr,
            CLUSTER: tl.constexpr = 1, B_T: tl.constexpr = False,
            PROMOTE: tl.constexpr = 0, SPLIT: tl.constexpr = 1):
    tl.static_assert(SPLIT == 1 or SPLIT == 2, "SPLIT is 1 or 2")
    dt = a_desc.dtype
    a_bufs = txl.smem_alloc([BM, BK], dtype=dt, num_stages=STAGES)
    if B_T:
        b_bufs = txl.smem_alloc([BN, BK], dtype=dt, num_stages=STAGES)
    else:
        b_bufs = txl.smem_alloc([BK, BN], dtype=dt, num_stages=STAGES)
    c_bufs = txl.smem_alloc([BM // 2, BN // SPLIT], dtype=c_desc.dtype,
                            num_stages=2)
    full = txl.mbar_alloc(1, num_stages=STAGES)
    # One arrival per consumer warpgroup per slice: its thread 0, after the
    # warpgroup-wide dot_wait that retired the wgmmas reading the stage
    # (cheaper than 256 arrivals on one barrier word).
    empty = txl.mbar_alloc(2 * CLUSTER, num_stages=STAGES)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(40)
        produce(a_bufs, b_bufs, full, empty, a_desc, b_desc, M, N, K, NUM_SMS,
                BM, BN, BK, STAGES, GROUP_M, CLUSTER, B_T)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(232)
        consume(a_bufs, b_bufs, txl.get_buffer(c_bufs, 0), full, empty,
                c_desc, M, N, K, NUM_SMS, BM, BN, BK, STAGES, GROUP_M, 0,
                CLUSTER, B_T, PROMOTE, SPLIT)
    if txl.is_warpgroup([2]):
        txl.reg_alloc(232)
        consume(a_bufs, b_bufs, txl.get_buffer(c_bufs, 1), full, empty,
                c_desc, M, N, K, NUM_SMS, BM, BN, BK, STAGES, GROUP_M, 1,
                CLUSTER, B_T, PROMOTE, SPLIT)


@txl.jit
def consume_alternate(a_bufs, b_bufs, c_tile, full, empty, order, c_desc, M,
                      N, K, NUM_SMS, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, STAGES: tl.constexpr,
                      GROUP_M: tl.constexpr, ROLE: tl.constexpr,
                      CLUSTER: tl.constexpr, B_T: tl.constexpr):
    """One consumer of gemm_pingpong: the CTA's tiles ROLE, ROLE + 2, ...,
    each whole. Its K loops alternate with the other consumer's (the
    `order` barriers), so its epilogue runs under the other's wgmmas."""
    num_pid_m = tl.cdiv(M, BM * CLUSTER)
    num_pid_n = tl.cdiv(N, BN)
    k_tiles = tl.cdiv(K, BK)
    leader = txl.tid(0) % 128 == 0
    rank = txl.cta_rank() if CLUSTER == 2 else 0
    mine = txl.get_buffer(order, ROLE)        # "your K loop may start"
    other = txl.get_buffer(order, 1 - ROLE)
    it = ROLE * k_tiles  # the first slice of the CTA's tile number ROLE
    i = 0
    for tile in range(tl.program_id(0) + ROLE * NUM_SMS,
                      num_pid_m * num_pid_n, 2 * NUM_SMS):
        pid_m, pid_n = tile_coords(tile, num_pid_m, num_pid_n, GROUP_M)
        pid_m = pid_m * CLUSTER + rank
        # Consumer 0 starts at once (the flipped parity passes); after
        # that each waits for the other's K loop to end. Waiting in turn
        # also keeps every slice wait at most one ring round ahead of the
        # producer, which the parity scheme needs when slices are skipped.
        txl.mbar_wait(mine, (i & 1) ^ (1 - ROLE))
        acc = tl.zeros([BM, BN], dtype=tl.float32)
        for kk in range(k_tiles):
            s = it % STAGES
            txl.mbar_wait(txl.get_buffer(full, s), (it // STAGES) & 1)
            b = txl.get_buffer(b_bufs, s)
            if B_T:
                b = b.T
            acc = tl.dot(txl.get_buffer(a_bufs, s), b, acc)
            txl.dot_wait(1)
            if kk > 0:
                release(txl.get_buffer(empty, (it + STAGES - 1) % STAGES),
                        leader, CLUSTER)
            it += 1
        # The other consumer's K loop may start under this one's epilogue.
        txl.mbar_arrive(other, pred=leader)
        txl.dot_wait(0)
        release(txl.get_buffer(empty, (it + STAGES - 1) % STAGES), leader,
                CLUSTER)
        it += k_tiles  # the other consumer's tile
        i += 1
        txl.tma_store_wait(0)
        txl.smem_store(c_tile, acc.to(c_desc.dtype))
        txl.tma_store(c_tile, c_desc, [pid_m * BM, pid_n * BN])
    txl.tma_store_wait(0)


@txl.jit
def gemm_pingpong(a_desc, b_desc, c_desc, M, N, K, NUM_SMS,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  STAGES: tl.constexpr, GROUP_M: tl.constexpr,
                  CLUSTER: tl.constexpr = 1, B_T: tl.constexpr = False):
    """The flagship's ping-pong form: the producer is gemm_ws's, but each
    consumer owns whole BM x BN tiles (alternate ones), so one consumer's
    epilogue overlaps the other's K loop instead of stalling the tensor
    cores. c_desc's block is [BM, BN]; BM x BN fp32 must fit one
    warpgroup's registers (128x128 or 64x256).

    Measured on the H100 (bench/RESULTS.md, session 4) it is slower than
    gemm_ws's cooperative 128x256 tile (617-621 vs 702 TFLOP/s at 4096^3):
    the smaller tiles move more bytes per FLOP, and the epilogue was not
    what held gemm_ws back."""
    dt = a_desc.dtype
    a_bufs = txl.smem_alloc([BM, BK], dtype=dt, num_stages=STAGES)
    if B_T:
        b_bufs = txl.smem_alloc([BN, BK], dtype=dt, num_stages=STAGES)
    else:
        b_bufs = txl.smem_alloc([BK, BN], dtype=dt, num_stages=STAGES)
    c_bufs = txl.smem_alloc([BM, BN], dtype=c_desc.dtype, num_stages=2)
    full = txl.mbar_alloc(1, num_stages=STAGES)
    # Each stage is read by one consumer (its leader arrives per CTA).
    empty = txl.mbar_alloc(CLUSTER, num_stages=STAGES)
    order = txl.mbar_alloc(1, num_stages=2)
    if txl.is_warpgroup([0]):
        txl.reg_dealloc(40)
        produce(a_bufs, b_bufs, full, empty, a_desc, b_desc, M, N, K, NUM_SMS,
                BM, BN, BK, STAGES, GROUP_M, CLUSTER, B_T)
    if txl.is_warpgroup([1]):
        txl.reg_alloc(232)
        consume_alternate(a_bufs, b_bufs, txl.get_buffer(c_bufs, 0), full,
                          empty, order, c_desc, M, N, K, NUM_SMS, BM, BN, BK,
                          STAGES, GROUP_M, 0, CLUSTER, B_T)
    if txl.is_warpgroup([2]):
        txl.reg_alloc(232)
        consume_alternate(a_bufs, b_bufs, txl.get_buffer(c_bufs, 1), full,
                          empty, order, c_desc, M, N, K, NUM_SMS, BM, BN, BK,
                          STAGES, GROUP_M, 1, CLUSTER, B_T)

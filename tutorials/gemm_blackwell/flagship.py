"""The flagship Blackwell GEMM: 2-SM MMAs, a persistent tile loop driven by
cluster launch control, a double-buffered accumulator in tensor memory and
a TMA-store epilogue.

    C[M, N] = A[M, K] @ B[K, N]   (fp16, bf16 or fp8 e4m3 in, fp32
                                   accumulate, fp16/bf16 out)

Compile-only: no Blackwell GPU has run it (docs/blackwell.md says what is
verified: ptxas for sm_100a and the structure of the PTX).

Launch: num_ctas=2 (a cluster is a CTA pair), num_warps=4,
num_warpgroups=2, grid = (number of cluster tiles,). A cluster tile is
2 * BLOCK_M x BLOCK_N (256 x 256): CTA r computes rows 128 * r of it with
its half of the pair's cta_group::2 MMAs (ladder step 9). Operands: A [M,
K] row-major (block [BLOCK_M, BLOCK_K]) and B^T [N, K] (K-major, block
[BLOCK_N / 2, BLOCK_K]: each CTA loads its half of B's columns); for fp8
both must be K-major anyway (kind::f8f6f4), and BLOCK_K = 128 keeps one
128-byte swizzle row per operand row.

Roles per CTA:
- warp 0, PRODUCER: TMA loads of this CTA's A rows and B half into a
  NUM_STAGES ring, counted on CTA 0's `full` barrier (`two_ctas=True`; CTA 0
  expects both CTAs' bytes). It is also the SCHEDULER (below).
- warp 1, MMA (CTA 0 only): one elected thread issues the pair's
  tcgen05.mma.cta_group::2 into accumulator t % 2; its commits free the
  stage (`empty`, multicast to both CTAs) and, at a tile's last K slice,
  announce the accumulator (`acc_ready`, multicast).
- warpgroup 1, WRITEBACK: reads its 128 rows of the accumulator in EPI_N
  column chunks (tmem_slice), converts, and TMA-stores them through two
  alternating shared tiles; then frees the accumulator on CTA 0's
  `acc_free` (2 x 128 arrivals). With two accumulators (2 x 256 columns =
  all of tensor memory), the MMAs of the next tile run while this one is
  drained.

Persistent scheduling by cluster launch control. The grid has one program
per tile, and a running cluster *steals* programs that have not been
launched yet: `txl.clc_try_cancel(response, bar)` cancels one pending
cluster's launch and writes which one to `response` (16 bytes, multicast
to both CTAs by CTA 0, completing 16 bytes on each CTA's `bar`);
`txl.clc_query(response)` is its program id, or -1 when none was left. So
the kernel fills exactly the SMs that are free (another kernel may hold
some) and no tile count per SM is fixed in advance, unlike ladder step 6's
`range(pid, num_tiles, NUM_SMS)`. Every role follows the same sequence:

    tile = tl.program_id(0); j = 0
    while tile >= 0:
        ... tile's work ...
        tile = next_tile(j)        # wait clc_full[j % 2], query, release
        j += 1

The producer asks for tile j + 1 as soon as it starts tile j, so the
answer is usually there before anyone needs it. Two response slots
(`clc_full`, `clc_empty`): a slot may be asked into again only after every
reader of both CTAs has read it, so `clc_empty` (in CTA 0) counts the
readers: the producer warps (2 x 32 threads), CTA 0's MMA warp (32) and the
writeback warpgroups (2 x 128).

L2: the tile index is mapped to (pid_m, pid_n) in groups of GROUP_M tile
rows, as in the Hopper flagship, so neighbouring programs share A and B
tiles in L2.
"""
import triton.language as tl
import txl

NUM_ACC = 2
# Readers of each scheduler response (threads arriving on clc_empty):
# both CTAs' producer warps and writeback warpgroups, CTA 0's MMA warp.
CLC_READERS = 2 * 32 + 32 + 2 * 128


@txl.jit
def tile_coords(tile, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    per_group = GROUP_M * num_pid_n
    group = tile // per_group
    first_m = group * GROUP_M
    rows = tl.minimum(num_pid_m - first_m, GROUP_M)
    inner = tile - group * per_group
    return first_m + inner % rows, inner // rows


@txl.jit
def next_tile(clc_resp, clc_full, clc_empty, j):
    """The tile after the j-th: wait for the j-th response, read it and
    release the slot (on CTA 0, where the producer asks again)."""
    s = j % 2
    txl.mbar_wait(txl.get_buffer(clc_full, s), (j // 2) & 1)
    tile = txl.clc_query(txl.get_buffer(clc_resp, s))
    txl.mbar_arrive(txl.get_buffer(clc_empty, s), cta_id=0)
    return tile


@txl.jit
def gemm_bw_flagship(a_desc, bt_half_desc, c_desc, M, N, K,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, EPI_N: tl.constexpr,
                     GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr):
    HALF_N: tl.constexpr = BLOCK_N // 2
    ELEM_BYTES: tl.constexpr = a_desc.dtype.primitive_bitwidth // 8
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=a_desc.dtype,
                        num_stages=NUM_STAGES)
    sB = txl.smem_alloc([HALF_N, BLOCK_K], dtype=a_desc.dtype,
                        num_stages=NUM_STAGES)
    sC = txl.smem_alloc([BLOCK_M, EPI_N], dtype=c_desc.dtype, num_stages=2)
    acc_bufs = txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32,
                              num_stages=NUM_ACC)
    full = txl.mbar_alloc(1, num_stages=NUM_STAGES)  # used in CTA 0
    empty = txl.mbar_alloc(1, num_stages=NUM_STAGES)
    acc_ready = txl.mbar_alloc(1, num_stages=NUM_ACC)
    acc_free = txl.mbar_alloc(2 * 128, num_stages=NUM_ACC)  # used in CTA 0
    clc_resp = txl.smem_alloc([4], dtype=tl.int32, num_stages=2)
    clc_full = txl.mbar_alloc(1, num_stages=2)
    clc_empty = txl.mbar_alloc(CLC_READERS, num_stages=2)  # used in CTA 0
    PAIR_SLICE_BYTES: tl.constexpr = (
        2 * (BLOCK_M + HALF_N) * BLOCK_K * ELEM_BYTES)

    rank = txl.cta_rank()
    num_pid_m = tl.cdiv(M, 2 * BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_k = tl.cdiv(K, BLOCK_K)

    if txl.is_warp([0]):
        # PRODUCER and SCHEDULER.
        it = 0
        j = 0
        tile = tl.program_id(0)
        while tile >= 0:
            # Ask for the next tile now; the answer lands while we load.
            s = j % 2
            if rank == 0:
                txl.mbar_wait(txl.get_buffer(clc_empty, s),
                              ((j // 2) & 1) ^ 1)
            txl.mbar_expect(txl.get_buffer(clc_full, s), 16)
            txl.clc_try_cancel(txl.get_buffer(clc_resp, s),
                               txl.get_buffer(clc_full, s))
            pid_m, pid_n = tile_coords(tile, num_pid_m, num_pid_n, GROUP_M)
            off_m = pid_m * (2 * BLOCK_M) + rank * BLOCK_M
            off_n = pid_n * BLOCK_N + rank * HALF_N
            for k in range(0, num_k):
                st = it % NUM_STAGES
                txl.mbar_wait(txl.get_buffer(empty, st),
                              ((it // NUM_STAGES) & 1) ^ 1)
                bar = txl.get_buffer(full, st)
                txl.mbar_expect(bar, PAIR_SLICE_BYTES, pred=rank == 0)
                txl.tma_load(txl.get_buffer(sA, st), a_desc,
                             [off_m, k * BLOCK_K], bar, two_ctas=True)
                txl.tma_load(txl.get_buffer(sB, st), bt_half_desc,
                             [off_n, k * BLOCK_K], bar, two_ctas=True)
                it += 1
            tile = next_tile(clc_resp, clc_full, clc_empty, j)
            j += 1

    if txl.is_warp([1]):
        # MMA (CTA 0 issues for the pair).
        if rank == 0:
            it = 0
            j = 0
            tile = tl.program_id(0)
            while tile >= 0:
                ab = j % NUM_ACC
                txl.mbar_wait(txl.get_buffer(acc_free, ab),
                              ((j // NUM_ACC) & 1) ^ 1)
                acc = txl.get_buffer(acc_bufs, ab)
                for k in range(0, num_k):
                    st = it % NUM_STAGES
                    txl.mbar_wait(txl.get_buffer(full, st),
                                  (it // NUM_STAGES) & 1)
                    a = txl.get_buffer(sA, st)
                    b = txl.get_buffer(sB, st).T
                    if k == num_k - 1:
                        txl.dotx(a, b, acc, useD=k > 0,
                                 mbars=[txl.get_buffer(empty, st),
                                        txl.get_buffer(acc_ready, ab)],
                                 two_ctas=True)
                    else:
                        txl.dotx(a, b, acc, useD=k > 0,
                                 mbars=[txl.get_buffer(empty, st)],
                                 two_ctas=True)
                    it += 1
                tile = next_tile(clc_resp, clc_full, clc_empty, j)
                j += 1

    if txl.is_warpgroup([1]):
        # WRITEBACK.
        j = 0
        tile = tl.program_id(0)
        while tile >= 0:
            pid_m, pid_n = tile_coords(tile, num_pid_m, num_pid_n, GROUP_M)
            off_m = pid_m * (2 * BLOCK_M) + rank * BLOCK_M
            off_n = pid_n * BLOCK_N
            ab = j % NUM_ACC
            txl.mbar_wait(txl.get_buffer(acc_ready, ab), (j // NUM_ACC) & 1)
            acc = txl.get_buffer(acc_bufs, ab)
            for e in tl.static_range(BLOCK_N // EPI_N):
                c = txl.tmem_load(txl.tmem_slice(acc, e * EPI_N, EPI_N))
                buf = txl.get_buffer(sC, e % 2)
                txl.tma_store_wait(1)
                txl.smem_store(buf, c.to(c_desc.dtype))
                txl.tma_store(buf, c_desc, [off_m, off_n + e * EPI_N])
            txl.mbar_arrive(txl.get_buffer(acc_free, ab), cta_id=0)
            tile = next_tile(clc_resp, clc_full, clc_empty, j)
            j += 1
        txl.tma_store_wait(0)

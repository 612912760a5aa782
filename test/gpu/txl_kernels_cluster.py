"""Kernels for test_cluster.py: thread-block clusters (num_ctas > 1)."""
import triton.language as tl
import txl


@txl.jit
def cluster_ids(out_ptr):
    # One row of four ints per CTA, indexed by the CTA's raw grid index.
    row = out_ptr + txl.bid(0) * 4
    if txl.tid(0) == 0:
        tl.store(row + 0, tl.program_id(0))
        tl.store(row + 1, tl.num_programs(0))
        tl.store(row + 2, txl.cta_rank())
        tl.store(row + 3, txl.bid(0))


@txl.jit
def cluster_gather(desc, out_ptr, NUM_CTAS: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # CTA r of cluster c loads rows block (c * NUM_CTAS + r) and multicasts
    # it to every CTA of the cluster, into stage r; each CTA then writes
    # out every stage it received.
    tiles = txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16,
                           num_stages=NUM_CTAS)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    rank = txl.cta_rank()
    cluster = tl.program_id(0)
    txl.mbar_expect(bar, NUM_CTAS * BLOCK_M * BLOCK_N * 2)
    txl.tma_load(txl.get_buffer(tiles, rank), desc,
                 [(cluster * NUM_CTAS + rank) * BLOCK_M, 0], bar,
                 multicast=(1 << NUM_CTAS) - 1)
    txl.mbar_wait(bar, 0)
    rows = tl.arange(0, BLOCK_M)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    base = out_ptr + txl.bid(0) * (NUM_CTAS * BLOCK_M * BLOCK_N)
    for j in tl.static_range(NUM_CTAS):
        t = txl.smem_load(txl.get_buffer(tiles, j))
        tl.store(base + j * BLOCK_M * BLOCK_N + rows * BLOCK_N + cols, t)


@txl.jit
def cluster_remote_arrive(out_ptr, ROUNDS: tl.constexpr):
    # A ping-pong over remote arrivals only: in round i, CTA (i % 2) arrives
    # on its peer's barrier; the peer waits for that phase and records the
    # round. Each CTA's barrier completes ROUNDS / 2 phases, all remote.
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    rank = txl.cta_rank()
    peer = rank ^ 1
    first = txl.tid(0) == 0
    phase = 0
    for i in range(ROUNDS):
        if i % 2 == rank:
            txl.mbar_arrive(bar, pred=first, cta_id=peer)
        else:
            txl.mbar_wait(bar, phase)
            phase ^= 1
            if first:
                tl.store(out_ptr + txl.bid(0) * ROUNDS + i, i + 1)

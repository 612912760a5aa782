"""Blackwell GEMM ladder, step 4: TMA loads, tcgen05, a TMA-store epilogue.

    C[M, N] = A[M, K] @ B[K, N],  one BLOCK_M x BLOCK_N tile per CTA

A 2-D grid of CTAs (step 3: program (i, j) owns C's tile (i, j)), each
walking K as in step 2, but no thread touches A or B any more:

TMA. `a_desc`/`bt_desc` are tensor descriptors (TMA boxes of [BLOCK_M,
BLOCK_K] and [BLOCK_N, BLOCK_K]); `txl.tma_load` has one thread ask the TMA
engine to copy a box into a shared buffer, already in the 128-byte-swizzled
layout the MMA's descriptors describe. Completion is counted in bytes on an
mbarrier: `txl.mbar_expect(ready, SLICE_BYTES)` is the one arrival the
barrier waits for plus the transaction bytes it must also see land, which
must equal the two boxes in flight, (BLOCK_M + BLOCK_N) * BLOCK_K * 2
bytes - the compiler checks that sum against the loads it can see.

The MMA, as in step 2, commits to `done`; the loads of slice k+1 may start
once `done` says MMA k has read the buffers, so each iteration waits on
`ready` then on `done`, both with the same flipping parity.

Epilogue through shared memory. The accumulator is read from tensor memory
(`txl.tmem_load`, one row per thread), rounded to fp16, written into a
shared tile and stored with one TMA copy (`txl.tma_store`, which the
compiler precedes with the async-proxy fence), then `txl.tma_store_wait(0)`
keeps the CTA (and its shared memory) alive until the store has read it.
TMA clips boxes at the tensor's edge, so ragged M/N/K need no masks (out of
bounds loads read zeros).
"""
import triton.language as tl
import txl


@txl.jit
def gemm_bw_step04(a_desc, bt_desc, c_desc, K,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    sC = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    ready = txl.get_buffer(txl.mbar_alloc(1), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)
    SLICE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K * 2

    phase = 0
    for k in range(0, K, BLOCK_K):
        txl.mbar_expect(ready, SLICE_BYTES)
        txl.tma_load(sA, a_desc, [off_m, k], ready)
        txl.tma_load(sB, bt_desc, [off_n, k], ready)
        txl.mbar_wait(ready, phase)
        txl.dotx(sA, sB.T, acc, useD=k > 0, mbars=[done])
        txl.mbar_wait(done, phase)
        phase ^= 1

    c = txl.tmem_load(acc)
    txl.smem_store(sC, c.to(tl.float16))
    txl.tma_store(sC, c_desc, [off_m, off_n])
    txl.tma_store_wait(0)

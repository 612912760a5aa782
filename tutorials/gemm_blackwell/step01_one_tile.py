"""Blackwell GEMM ladder, step 1: one tile, one tcgen05 MMA into tensor memory.

    C[BLOCK_M, BLOCK_N] = A[BLOCK_M, BLOCK_K] @ B[BLOCK_K, BLOCK_N]

The same problem as tutorials/gemm/step01 (one CTA, grid (1,), num_warps=4:
one warpgroup), on Blackwell (sm_100a). What changes is where the tensor
core's result lives and who issues the instruction:

1. Tensor memory. `txl.tmem_alloc([128, BLOCK_N], tl.float32)` reserves
   BLOCK_N 32-bit columns of the SM's tensor memory (TMEM: 128 lanes x 512
   columns) for the accumulator: row r of the tile is TMEM lane r. The
   compiler allocates it for the whole CTA at entry (one warp runs
   `tcgen05.alloc`, in a power of two of at least 32 columns, and writes
   the address to shared memory; after a CTA barrier everyone reads it),
   relinquishes the CTA's permit to allocate more, and frees it
   (`tcgen05.dealloc`, after a CTA barrier) before the kernel exits.
2. Synchronous copy, as on Hopper: every thread loads its part of A and of
   B^T and `txl.smem_store`s it; the stores are fenced for the async proxy
   and the CTA synchronizes, so the tensor core may read the tiles.
3. One MMA from one thread. `txl.dotx(sA, sB.T, acc, useD=False,
   mbars=[done])` is `tcgen05.mma`: unlike wgmma it is issued by a single
   thread (the elected lane of warp 0, `elect.sync`), reads both operands
   through shared-memory descriptors and writes D straight into tensor
   memory. `useD=False` overwrites D instead of adding to it, so the
   accumulator needs no zeroing. The same thread then commits the MMA to
   the mbarrier `done` (`tcgen05.commit`): the barrier gets one arrival
   when the tensor core has finished - hence `mbar_alloc(1)`.
4. Wait, then read TMEM. Every thread waits for phase 0 of `done`. Reading
   the accumulator is `txl.tmem_load(acc)`: `tcgen05.ld.32x32b`, where
   warp w of the warpgroup reads TMEM lanes 32w..32w+31 (the hardware lets
   it reach no others), so each thread holds one row of the tile. The
   compiler puts `tcgen05.fence::after_thread_sync` between the wait and
   the load (the wait is a thread synchronization; the fence orders the
   tensor-memory read after it).
5. Store: fp32 -> fp16, as before.

BLOCK_M must be 128 (one row per TMEM lane; cta_group::1), BLOCK_N a
multiple of 16 up to 256, BLOCK_K a multiple of 16 (fp16). As on Hopper, B
is given transposed (`bt` is B^T, [BLOCK_N, BLOCK_K]) so both tiles are
K-major and `sB.T` is the [BLOCK_K, BLOCK_N] view the MMA takes.

No Blackwell GPU ran this: CI compiles it for sm_100a, has ptxas assemble
it, and checks the protocol in the PTX (test/lit/e2e/gemm-ladder-blackwell.mlir;
docs/blackwell.md).
"""
import triton.language as tl
import txl


@txl.jit
def gemm_bw_step01(a_ptr, bt_ptr, c_ptr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    # The accumulator lives in tensor memory, not in registers.
    acc = txl.get_buffer(txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    # One arrival: the tcgen05.commit of the MMA.
    done = txl.get_buffer(txl.mbar_alloc(1), 0)

    # 2. global -> registers -> shared (A and B^T are both [rows, BLOCK_K]).
    a = tl.load(a_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :])
    b = tl.load(bt_ptr + offs_n[:, None] * BLOCK_K + offs_k[None, :])
    txl.smem_store(sA, a)
    txl.smem_store(sB, b)

    # 3. one thread issues the MMA (D = A @ B, no accumulate) and commits it.
    txl.dotx(sA, sB.T, acc, useD=False, mbars=[done])
    # 4. the tensor core is done once `done` completes phase 0.
    txl.mbar_wait(done, 0)
    c = txl.tmem_load(acc)

    # 5. epilogue: fp32 accumulator -> fp16 C.
    c_ptrs = c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :]
    tl.store(c_ptrs, c.to(tl.float16))

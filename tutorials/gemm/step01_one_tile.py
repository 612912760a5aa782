"""GEMM ladder, step 1: one tile, one K slice, one tensor-core MMA.

    C[BLOCK_M, BLOCK_N] = A[BLOCK_M, BLOCK_K] @ B[BLOCK_K, BLOCK_N]

The whole problem is a single tile, so one CTA (launch grid (1,), num_warps=4:
one warpgroup of 128 threads) does all of it, in four moves:

1. Synchronous copy. Every thread `tl.load`s its part of A and of B from
   global memory into registers and `txl.smem_store`s it into a shared
   buffer. Hopper's wgmma reads its operands from shared memory, not from
   the registers of the threads that loaded them. The compiler picks a
   128-byte-swizzled layout for both buffers (the layout wgmma's matrix
   descriptors describe) and, because the threads write through the generic
   proxy and wgmma reads through the async proxy, follows the stores with
   `fence.proxy.async` and a CTA barrier.
2. One asynchronous MMA. `tl.dot` on two shared buffers is not a register
   computation: it issues `wgmma.mma_async` for the warpgroup (as many
   m64nNk16 instructions as the tile needs) and closes them into one
   commit group. Its result is an accumulator the hardware is still
   writing. With no `acc` argument the accumulator starts at zero.
3. Wait. `txl.dot_wait(0)` blocks until no wgmma group is pending
   (`wgmma.wait_group 0`); only then may the accumulator be read.
4. Store. The fp32 accumulator is rounded to fp16 and stored.

The B operand is given transposed: `bt` is B^T, [BLOCK_N, BLOCK_K] and
row-major, so in shared memory both A and B^T have K as their contiguous
dimension ("K-major"), which is what the wgmma lowering currently requires
of B. `sB.T` is the [BLOCK_K, BLOCK_N] view of that buffer the dot takes;
it moves no data.

BLOCK_M must be a multiple of 64 (one wgmma is 64 rows), BLOCK_N a multiple
of 8 up to 256, BLOCK_K a multiple of 16 (fp16). Step 2 adds a K loop.
"""
import triton.language as tl
import txl


@txl.jit
def gemm_step01(a_ptr, bt_ptr, c_ptr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    # Shared buffers are allocated once per CTA, at the kernel's top level;
    # smem_alloc returns an array of stages and get_buffer picks stage 0.
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)

    # 1. global -> registers -> shared (A and B^T are both [rows, BLOCK_K]).
    a = tl.load(a_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :])
    b = tl.load(bt_ptr + offs_n[:, None] * BLOCK_K + offs_k[None, :])
    txl.smem_store(sA, a)
    txl.smem_store(sB, b)

    # 2. issue the wgmma group; 3. wait for it before touching the result.
    acc = tl.dot(sA, sB.T)
    txl.dot_wait(0)

    # 4. epilogue: fp32 accumulator -> fp16 C.
    c_ptrs = c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16))

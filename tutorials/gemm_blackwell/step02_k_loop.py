"""Blackwell GEMM ladder, step 2: a loop over K accumulating in tensor memory.

    C[BLOCK_M, BLOCK_N] = A[BLOCK_M, K] @ B[K, BLOCK_N],  K a multiple of BLOCK_K

One CTA (grid (1,), num_warps=4), the K dimension walked in BLOCK_K slices
through one pair of shared buffers. New in this step:

Accumulating in place. The accumulator never leaves tensor memory inside
the loop: every `txl.dotx` adds A_k @ B_k to what the previous one left in
`acc`. Only the first must not add (tensor memory is not zeroed): `useD=k
> 0` is tcgen05.mma's enable-input-D operand, false on the first slice.

Reusing the buffers. Slice k+1 overwrites sA/sB, so slice k's MMA must have
read them first. The MMA is asynchronous and issued by one thread, so the
CTA learns it is done from the mbarrier the MMA is committed to: `done`
(one arrival per commit) completes one phase per slice, and every thread
waits for it with a parity that flips each iteration (the k-th wait asks
for parity k % 2), exactly like step 2 on Hopper. `tcgen05.commit` tracks
every tcgen05 operation the issuing thread started before it, so the last
completion also means the accumulator is final.

As in step 1, `txl.smem_store` fences the async proxy and synchronizes the
CTA before the MMA may read the tiles, and `txl.tmem_load` fences after the
last wait before reading tensor memory.
"""
import triton.language as tl
import txl


@txl.jit
def gemm_bw_step02(a_ptr, bt_ptr, c_ptr, K,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)

    phase = 0
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :])
        b = tl.load(bt_ptr + offs_n[:, None] * K + ks[None, :])
        txl.smem_store(sA, a)
        txl.smem_store(sB, b)
        # acc (+)= A_k @ B_k; the first slice overwrites.
        txl.dotx(sA, sB.T, acc, useD=k > 0, mbars=[done])
        # The MMA has read sA/sB (and written acc) once this phase completes.
        txl.mbar_wait(done, phase)
        phase ^= 1

    c = txl.tmem_load(acc)
    c_ptrs = c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :]
    tl.store(c_ptrs, c.to(tl.float16))

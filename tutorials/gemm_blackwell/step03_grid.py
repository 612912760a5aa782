"""Blackwell GEMM ladder, step 3: a 2-D grid of CTAs and ragged edges.

    C[M, N] = A[M, K] @ B[K, N],  grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))

Step 2's kernel, one tile of C per CTA: program (i, j) computes the
BLOCK_M x BLOCK_N tile at rows i * BLOCK_M and columns j * BLOCK_N,
walking all of K. Nothing about tensor memory changes - each CTA allocates
its own accumulator columns (CTAs on one SM share its 512 columns; a CTA
whose allocation does not fit waits in tcgen05.alloc until another frees
its columns, which is why every CTA frees them before it exits).

M, N and K need not be multiples of the block: the loads are masked
(`other=0.0`, so a partial K slice adds zeros) and so is the store. The
MMA always computes the whole tile; rows and columns outside C are simply
not stored.
"""
import triton.language as tl
import txl


@txl.jit
def gemm_bw_step03(a_ptr, bt_ptr, c_ptr, M, N, K,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    acc = txl.get_buffer(txl.tmem_alloc([BLOCK_M, BLOCK_N], dtype=tl.float32), 0)
    done = txl.get_buffer(txl.mbar_alloc(1), 0)

    phase = 0
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(bt_ptr + offs_n[:, None] * K + ks[None, :],
                    mask=(offs_n[:, None] < N) & (ks[None, :] < K), other=0.0)
        txl.smem_store(sA, a)
        txl.smem_store(sB, b)
        txl.dotx(sA, sB.T, acc, useD=k > 0, mbars=[done])
        txl.mbar_wait(done, phase)
        phase ^= 1

    c = txl.tmem_load(acc)
    c_ptrs = c_ptr + offs_m[:, None] * N + offs_n[None, :]
    tl.store(c_ptrs, c.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

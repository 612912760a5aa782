"""GEMM ladder, step 1: one output tile per CTA, a synchronous copy of each
K slice into shared memory, one wgmma per slice (waited for at once).

C[M, N] = A[M, K] @ B[K, N], with B given transposed (`bt` is [N, K],
row-major), so both operands are K-major in shared memory as wgmma reads
them; `sB.T` is the [BLOCK_K, BLOCK_N] view the dot takes.
"""
import triton.language as tl
import txl


@txl.jit
def gemm_step01(a_ptr, bt_ptr, c_ptr, M, N, K,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.get_buffer(txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=tl.float16), 0)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :],
                    mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(bt_ptr + offs_n[:, None] * K + ks[None, :],
                    mask=(offs_n[:, None] < N) & (ks[None, :] < K), other=0.0)
        txl.smem_store(sA, a)
        txl.smem_store(sB, b)
        acc = tl.dot(sA, sB.T, acc)
        txl.dot_wait(0)
    c_ptrs = c_ptr + offs_m[:, None] * N + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

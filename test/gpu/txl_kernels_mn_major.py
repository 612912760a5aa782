"""wgmma operands in either major order: B as a row-major [K, N] buffer
(N-major, wgmma's transpose bit), A as [M, K] (K-major) or given as
A^T [K, M] and read through a transposed view (M-major)."""
import triton.language as tl
import txl

@txl.jit
def mn_dot(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr, A_MAJOR_M: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    if A_MAJOR_M:
        sA = txl.get_buffer(txl.smem_alloc([BK, BM], dtype=tl.float16), 0)
    else:
        sA = txl.get_buffer(txl.smem_alloc([BM, BK], dtype=tl.float16), 0)
    sB = txl.get_buffer(txl.smem_alloc([BK, BN], dtype=tl.float16), 0)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        ks = k + offs_k
        if A_MAJOR_M:
            # A^T given: at is [K, M] row-major
            a = tl.load(a_ptr + ks[:, None] * M + offs_m[None, :],
                        mask=(ks[:, None] < K) & (offs_m[None, :] < M), other=0.0)
        else:
            a = tl.load(a_ptr + offs_m[:, None] * K + ks[None, :],
                        mask=(offs_m[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + offs_n[None, :],
                    mask=(ks[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        txl.smem_store(sA, a)
        txl.smem_store(sB, b)
        if A_MAJOR_M:
            acc = tl.dot(sA.T, sB, acc)
        else:
            acc = tl.dot(sA, sB, acc)
        txl.dot_wait(0)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))

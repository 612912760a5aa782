"""Kernels for test_compat_hopper.py (a module of its own so txlc can compile
them without a GPU): the TXL-project idioms issue 13 made compile."""

import triton.language as tl
import txl


@txl.jit
def kloop_exit_wait(a_ptr, b_ptr, c_ptr, M, N, K,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = A @ B with a K loop that ends on dot_wait(1): the accumulator
    leaves the loop with its last wgmma group in flight, and the epilogue
    reads it through the implicit dot_wait(0) at the loop's exit (the TXL
    project's rule). Two stages, so the buffer a store overwrites belongs
    to a group the previous dot_wait(1) retired."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    sa = txl.smem_alloc([BM, BK], dtype=a_ptr.dtype.element_ty, num_stages=2)
    sb = txl.smem_alloc([BK, BN], dtype=b_ptr.dtype.element_ty, num_stages=2)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :],
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        txl.smem_store(txl.get_buffer(sa, k % 2), a)
        txl.smem_store(txl.get_buffer(sb, k % 2), b)
        acc = tl.dot(txl.get_buffer(sa, k % 2), txl.get_buffer(sb, k % 2), acc)
        txl.dot_wait(1)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))

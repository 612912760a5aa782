"""wgmma with A from registers (test_register_a.py): a module of its own so
txlc can compile the kernels without a GPU."""

import triton.language as tl
import txl


@txl.jit
def reg_a_dot(a_ptr, b_ptr, c_ptr, M, N, K,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C[BM, BN] tile = A @ B with A loaded into registers (any layout; the
    compiler converts it to wgmma's A fragment) and B [K, N] row-major in a
    shared buffer (MN-major for wgmma). One program per tile, K loop."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    sb = txl.get_buffer(txl.smem_alloc([BK, BN], dtype=b_ptr.dtype.element_ty), 0)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :],
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        txl.smem_store(sb, b)
        acc = tl.dot(a, sb, acc)
        txl.dot_wait(0)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@txl.jit
def chained_dot(q_ptr, k_ptr, v_ptr, o_ptr, SCALE,
                BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    """The FlashAttention pattern without the softmax bookkeeping: S = Q K^T
    (both operands in shared memory), P = exp(S * SCALE) rounded to 16 bits
    and kept in registers, O = P @ V with P as wgmma's register A operand.
    Q [BM, D], K [BN, D], V [BN, D], O [BM, D], all row-major."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    dt = q_ptr.dtype.element_ty
    sq = txl.get_buffer(txl.smem_alloc([BM, D], dtype=dt), 0)
    sk = txl.get_buffer(txl.smem_alloc([BN, D], dtype=dt), 0)
    sv = txl.get_buffer(txl.smem_alloc([BN, D], dtype=dt), 0)
    txl.smem_store(sq, tl.load(q_ptr + rm[:, None] * D + rd[None, :]))
    txl.smem_store(sk, tl.load(k_ptr + rn[:, None] * D + rd[None, :]))
    txl.smem_store(sv, tl.load(v_ptr + rn[:, None] * D + rd[None, :]))
    s = tl.dot(sq, sk.T)
    txl.dot_wait(0)
    p = tl.exp(s * SCALE).to(dt)
    o = tl.dot(p, sv)
    txl.dot_wait(0)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], o)

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


@txl.jit
def reg_a_dot_fp8(a_ptr, bt_ptr, c_ptr, M, N, K,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C[BM, BN] tile (fp32) = A @ B on fp8 with A loaded into registers
    (wgmma's 8-bit register-A form, k32: four e4m3 per register) and B
    given transposed, B^T [N, K] row-major, so that its shared buffer is
    K-major, the only B 8-bit wgmma reads."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    sbt = txl.get_buffer(
        txl.smem_alloc([BN, BK], dtype=bt_ptr.dtype.element_ty), 0)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        bt = tl.load(bt_ptr + rn[:, None] * K + kk[None, :],
                     mask=(rn[:, None] < N) & (kk[None, :] < K), other=0.0)
        txl.smem_store(sbt, bt)
        acc = tl.dot(a, sbt.T, acc)
        txl.dot_wait(0)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@txl.jit
def chained_dot_fp8(q_ptr, k_ptr, vt_ptr, o_ptr, p_ptr, SCALE,
                    BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    """chained_dot on e4m3: S = Q K^T, P = exp(S * SCALE) rounded to e4m3
    in registers (also stored to p_ptr, [BM, BN]), O (fp32) = P @ V with P
    as the 8-bit register A operand and V given as V^T [D, BN] (K-major B)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    dt = q_ptr.dtype.element_ty
    sq = txl.get_buffer(txl.smem_alloc([BM, D], dtype=dt), 0)
    sk = txl.get_buffer(txl.smem_alloc([BN, D], dtype=dt), 0)
    svt = txl.get_buffer(txl.smem_alloc([D, BN], dtype=dt), 0)
    txl.smem_store(sq, tl.load(q_ptr + rm[:, None] * D + rd[None, :]))
    txl.smem_store(sk, tl.load(k_ptr + rn[:, None] * D + rd[None, :]))
    txl.smem_store(svt, tl.load(vt_ptr + rd[:, None] * BN + rn[None, :]))
    s = tl.dot(sq, sk.T)
    txl.dot_wait(0)
    p = tl.exp(s * SCALE).to(dt)
    tl.store(p_ptr + rm[:, None] * BN + rn[None, :], p)
    o = tl.dot(p, svt.T)
    txl.dot_wait(0)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], o)


@txl.jit
def show_fp8_a_fragment():
    """Prints (at compile time) wgmma's 8-bit register A fragment: the
    dot-operand layout with k_width 4 (four e4m3 per 32-bit register) of a
    warpgroup, and the fp32 accumulator layout of the same warps, whose
    columns a thread holds in pairs (txl.acc_to_dot_a reorders them)."""
    acc = txl.NVMMADistributedLayout(3, [4, 1], [16, 32, 32])
    txl.print_layout([64, 32], tl.float8e4nv, txl.DotOperandLayout(0, acc, 4))
    txl.print_layout([64, 32], tl.float32, acc)


@txl.jit
def chained_dot_acc_to_dot_a(q_ptr, k_ptr, vt_ptr, o_ptr, p_ptr, SCALE,
                             BM: tl.constexpr, BN: tl.constexpr,
                             D: tl.constexpr, STORE_P: tl.constexpr = True):
    """chained_dot_fp8 with P taken as A in place: txl.acc_to_dot_a(p) is P
    with its columns permuted within each group of 32
    (txl.acc_to_dot_a_columns(8)), so the caller passes V^T with its
    columns (the keys) permuted the same way, and O = P V is unchanged.
    Works for 16-bit types too (the order is then the identity)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rd = tl.arange(0, D)
    dt = q_ptr.dtype.element_ty
    sq = txl.get_buffer(txl.smem_alloc([BM, D], dtype=dt), 0)
    sk = txl.get_buffer(txl.smem_alloc([BN, D], dtype=dt), 0)
    svt = txl.get_buffer(txl.smem_alloc([D, BN], dtype=dt), 0)
    txl.smem_store(sq, tl.load(q_ptr + rm[:, None] * D + rd[None, :]))
    txl.smem_store(sk, tl.load(k_ptr + rn[:, None] * D + rd[None, :]))
    txl.smem_store(svt, tl.load(vt_ptr + rd[:, None] * BN + rn[None, :]))
    s = tl.dot(sq, sk.T)
    txl.dot_wait(0)
    p = tl.exp(s * SCALE).to(dt)
    if STORE_P:  # for the test (its layout change goes through shared memory)
        tl.store(p_ptr + rm[:, None] * BN + rn[None, :], p)
    o = tl.dot(txl.acc_to_dot_a(p), svt.T)
    txl.dot_wait(0)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], o)

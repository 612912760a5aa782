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


@txl.jit
def span_slice_dot(a_ptr, b_ptr, c_ptr,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                   KS: tl.constexpr):
    """C = A @ B^T with A [BM, BK] and B [BN, BK] in 128-byte-swizzled
    shared tiles, the K loop over smem_slice(…, kk, KS, dim=1) views narrower
    than the swizzle span (the TXL project's matmul_separate_tma kernel)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = txl.get_buffer(txl.smem_alloc([BM, BK], dtype=a_ptr.dtype.element_ty), 0)
    b = txl.get_buffer(txl.smem_alloc([BN, BK], dtype=b_ptr.dtype.element_ty), 0)
    txl.smem_store(a, tl.load(a_ptr + rm[:, None] * BK + rk[None, :]))
    txl.smem_store(b, tl.load(b_ptr + rn[:, None] * BK + rk[None, :]))
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for kk in tl.static_range(0, BK, KS):
        aa = txl.smem_slice(a, start=kk, length=KS, dim=1)
        bb = txl.smem_slice(b, start=kk, length=KS, dim=1)
        acc = tl.dot(aa, bb.T, acc)
        txl.dot_wait(0)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(c_ptr.dtype.element_ty))


@txl.jit
def desc_axpb_1d(x_desc, y_desc, BLOCK: tl.constexpr):
    """y = 2 x + 1 by desc.load / desc.store of 1-D blocks (TMA, rank 1)."""
    off = tl.program_id(0) * BLOCK
    y_desc.store([off], x_desc.load([off]) * 2.0 + 1.0)


@txl.jit
def tma_axpb_1d(x_desc, y_desc, BLOCK: tl.constexpr):
    """The same by hand: txl.tma_load into a 1-D shared buffer signalled on
    an mbarrier, smem_load / smem_store, txl.tma_store out of it."""
    off = tl.program_id(0) * BLOCK
    buf = txl.get_buffer(txl.smem_alloc([BLOCK], dtype=tl.float32), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, BLOCK * 4)
    txl.tma_load(buf, x_desc, [off], bar)
    txl.mbar_wait(bar, 0)
    v = txl.smem_load(buf)
    txl.smem_store(buf, v * 2.0 + 1.0)
    txl.tma_store(buf, y_desc, [off])
    txl.tma_store_wait(0)


@txl.jit
def made_axpb_1d(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """1-D descriptors made in the kernel (tl.make_tensor_descriptor)."""
    xd = tl.make_tensor_descriptor(x_ptr, shape=[n], strides=[1],
                                   block_shape=[BLOCK])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[n], strides=[1],
                                   block_shape=[BLOCK])
    off = tl.program_id(0) * BLOCK
    yd.store([off], xd.load([off]) * 2.0 + 1.0)


@txl.jit
def rega_from_smem(q_ptr, k_ptr, o_ptr, n, stats_ptr):
    """O = n * (Q K^T) with Q read from shared memory once as wgmma's
    register A operand (loaded straight into the A fragment), and the row
    sums and maxima through two small shared vectors (128-byte stages)."""
    r = tl.arange(0, 64)
    sq = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    sk = txl.get_buffer(txl.smem_alloc([64, 64], dtype=tl.float16), 0)
    s0 = txl.get_buffer(txl.smem_alloc([64], dtype=tl.float32), 0)
    s1 = txl.get_buffer(txl.smem_alloc([64], dtype=tl.float32), 0)
    txl.smem_store(sq, tl.load(q_ptr + r[:, None] * 64 + r[None, :]))
    txl.smem_store(sk, tl.load(k_ptr + r[:, None] * 64 + r[None, :]))
    q = txl.smem_load(sq)
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for i in range(n):
        acc = tl.dot(q, sk.T, acc)
        txl.dot_wait(0)
    txl.smem_store(s0, tl.sum(acc, 1))
    txl.smem_store(s1, tl.max(acc, 1))
    tl.store(stats_ptr + r, txl.smem_load(s0) + txl.smem_load(s1))
    tl.store(o_ptr + r[:, None] * 64 + r[None, :], acc)

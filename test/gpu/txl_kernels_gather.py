"""Kernels of test_tma_gather.py and test_smem_reshape.py (a module of its
own so that txlc and the lit tests can compile them)."""

import triton.language as tl
import txl


@txl.jit
def gather_rows(x_desc, idx_ptr, out_ptr, col, R: tl.constexpr,
                W: tl.constexpr, DT: tl.constexpr):
    """out[i, :] = x[idx[i], col:col + W] (zeros for rows outside x)."""
    buf = txl.get_buffer(txl.smem_alloc([R, W], dtype=DT), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    r = tl.arange(0, R)
    rows = tl.load(idx_ptr + r)
    txl.mbar_expect(bar, R * W * DT.primitive_bitwidth // 8)
    txl.tma_gather(buf, x_desc, bar, rows, col)
    txl.mbar_wait(bar, 0)
    x = txl.smem_load(buf)
    c = tl.arange(0, W)
    tl.store(out_ptr + r[:, None] * W + c[None, :], x)


@txl.jit
def gather_dot(a_desc, idx_ptr, b_ptr, c_ptr, BM: tl.constexpr,
               BK: tl.constexpr, BN: tl.constexpr):
    """c = a[idx, :BK] @ b: the A rows gathered by TMA straight into the
    swizzled tile wgmma reads (a sparse-attention K gather)."""
    a = txl.get_buffer(txl.smem_alloc([BM, BK], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([BK, BN], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    rows = tl.load(idx_ptr + tl.arange(0, BM))
    txl.mbar_expect(bar, BM * BK * 2)
    txl.tma_gather(a, a_desc, bar, rows, 0)
    k = tl.arange(0, BK)
    n = tl.arange(0, BN)
    txl.smem_store(b, tl.load(b_ptr + k[:, None] * BN + n[None, :]))
    txl.mbar_wait(bar, 0)
    acc = tl.dot(a, b)
    txl.dot_wait(0)
    m = tl.arange(0, BM)
    tl.store(c_ptr + m[:, None] * BN + n[None, :], acc)


@txl.jit
def reshape_stages(x_desc, y_desc, out_ptr, S: tl.constexpr, M: tl.constexpr,
                   K: tl.constexpr):
    """S TMA-loaded [M, K] stages read back as one [S * M, K] view (and
    stored from it by TMA through a descriptor of that block)."""
    bufs = txl.smem_alloc([M, K], dtype=tl.float16, num_stages=S)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, S * M * K * 2)
    for s in tl.static_range(S):
        txl.tma_load(txl.get_buffer(bufs, s), x_desc, [s * M, 0], bar)
    txl.mbar_wait(bar, 0)
    whole = txl.smem_reshape(bufs, [S * M, K])
    x = txl.smem_load(whole)
    r = tl.arange(0, S * M)
    c = tl.arange(0, K)
    tl.store(out_ptr + r[:, None] * K + c[None, :], x + 1)
    txl.tma_store(whole, y_desc, [0, 0])
    txl.tma_store_wait(0)


@txl.jit
def reshape_dot(a_desc, a_ptr, b_ptr, c_ptr, d_ptr, BM: tl.constexpr,
                BK: tl.constexpr, BN: tl.constexpr):
    """d = a read through a [2, BM/2, BK] view of a TMA-loaded (swizzled)
    tile, half by half; c = a @ b with A written through a [BM/2, 2, BK]
    view and read by wgmma as [BM, BK]."""
    a = txl.get_buffer(txl.smem_alloc([BM, BK], dtype=tl.float16), 0)
    a2 = txl.get_buffer(txl.smem_alloc([BM, BK], dtype=tl.float16), 0)
    b = txl.get_buffer(txl.smem_alloc([BK, BN], dtype=tl.float16), 0)
    bar = txl.get_buffer(txl.mbar_alloc(1), 0)
    txl.mbar_expect(bar, BM * BK * 2)
    txl.tma_load(a, a_desc, [0, 0], bar)
    txl.mbar_wait(bar, 0)
    halves = txl.smem_reshape(a, [2, BM // 2, BK])
    h = tl.arange(0, BM // 2)
    k = tl.arange(0, BK)
    top = txl.smem_load(txl.smem_index(halves, 0))
    bottom = txl.smem_load(txl.smem_index(halves, 1))
    tl.store(d_ptr + h[:, None] * BK + k[None, :], top)
    tl.store(d_ptr + (h[:, None] + BM // 2) * BK + k[None, :], bottom)
    m = tl.arange(0, BM)
    x = tl.load(a_ptr + m[:, None] * BK + k[None, :])
    txl.smem_store(txl.smem_reshape(a2, [BM // 2, 2, BK]),
                   tl.reshape(x, [BM // 2, 2, BK]))
    n = tl.arange(0, BN)
    txl.smem_store(b, tl.load(b_ptr + k[:, None] * BN + n[None, :]))
    acc = tl.dot(a2, b)
    txl.dot_wait(0)
    tl.store(c_ptr + m[:, None] * BN + n[None, :], acc)

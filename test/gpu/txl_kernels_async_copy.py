"""cp.async kernels of test_async_copy.py (a module of their own so that txlc
can compile them: test files hold Python the kernel language does not have).

Group accounting used below: every txl.async_load closes one cp.async group
of the calling thread, and txl.async_load_wait(n) returns once at most n of
that thread's groups are still in flight (then synchronizes the CTA). A ring
of S stages keeps S - 1 slices in flight, so before consuming slice t the
thread has committed the groups of slices 0 .. t + S - 2 and may leave the
last S - 2 slices' groups pending. Every iteration issues its slice even past
the end (fully masked: zero-filled, nothing read), so that count holds on the
last iterations too.
"""

import triton.language as tl
import txl


@txl.jit
def ring_copy(x_ptr, y_ptr, M, N, stride_xm, stride_ym,
              BM: tl.constexpr, BN: tl.constexpr, S: tl.constexpr,
              DT: tl.constexpr):
    """y[:M, :N] = x[:M, :N]. Program j copies the column of tiles
    x[:, j*BN:(j+1)*BN] top to bottom through an S-stage ring, so the ring
    wraps whenever M spans more than S tiles."""
    offs_m = tl.arange(0, BM)
    offs_n = tl.program_id(0) * BN + tl.arange(0, BN)
    col_ok = offs_n[None, :] < N
    ring = txl.smem_alloc([BM, BN], dtype=DT, num_stages=S)
    num_tiles = tl.cdiv(M, BM)

    # Prologue: tiles 0 .. S-2 into stages 0 .. S-2.
    for i in tl.static_range(S - 1):
        rows = i * BM + offs_m
        src = x_ptr + rows[:, None] * stride_xm + offs_n[None, :]
        txl.async_load(txl.get_buffer(ring, i), src,
                       mask=(rows[:, None] < M) & col_ok)

    for t in range(0, num_tiles):
        # Tile t has landed (its group is older than the last S - 2).
        txl.async_load_wait(S - 2)
        tile = txl.smem_load(txl.get_buffer(ring, t % S))
        rows = t * BM + offs_m
        dst = y_ptr + rows[:, None] * stride_ym + offs_n[None, :]
        tl.store(dst, tile, mask=(rows[:, None] < M) & col_ok)
        # Refill the stage of tile t - 1: every thread read it in the
        # previous iteration, before the barrier in this one's wait.
        nt = t + S - 1
        nrows = nt * BM + offs_m
        src = x_ptr + nrows[:, None] * stride_xm + offs_n[None, :]
        txl.async_load(txl.get_buffer(ring, nt % S), src,
                       mask=(nrows[:, None] < M) & col_ok)

    # Drain the (fully masked) copies still in flight before the CTA exits.
    txl.async_load_wait(0)


@txl.jit
def overhang_copy(x_ptr, y_ptr, M, N, stride_xm, stride_ym,
                  BM: tl.constexpr, BN: tl.constexpr, DT: tl.constexpr,
                  ZERO_OTHER: tl.constexpr):
    """y (padded to whole tiles) = x zero-padded: each program loads its
    BM x BN tile, which may overhang x's edges, and stores it whole. The
    buffer is poisoned (-7) first, so a masked-off element that is not
    zero-filled by the copy shows up as -7 instead of a stale zero."""
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    buf = txl.get_buffer(txl.smem_alloc([BM, BN], dtype=DT), 0)
    txl.smem_store(buf, tl.full([BM, BN], -7.0, DT))
    src = x_ptr + rows[:, None] * stride_xm + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    if ZERO_OTHER:
        txl.async_load(buf, src, mask=mask, other=0)
    else:
        txl.async_load(buf, src, mask=mask)
    txl.async_load_wait(0)
    tile = txl.smem_load(buf)
    tl.store(y_ptr + rows[:, None] * stride_ym + cols[None, :], tile)


@txl.jit
def bad_other_copy(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    """other=1.0 cannot be done by a zero-filling copy: a compile error."""
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    buf = txl.get_buffer(txl.smem_alloc([BM, BN], dtype=tl.float16), 0)
    src = x_ptr + rows[:, None] * BN + cols[None, :]
    txl.async_load(buf, src, mask=rows[:, None] < BM - 1, other=1.0)
    txl.async_load_wait(0)
    tl.store(y_ptr + rows[:, None] * BN + cols[None, :], txl.smem_load(buf))


@txl.jit
def async_gemm(a_ptr, bt_ptr, c_ptr, M, N, K, stride_am, stride_btn,
               stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_K: tl.constexpr, S: tl.constexpr, DT: tl.constexpr):
    """C[M, N] (fp32) = A[M, K] @ Bt[N, K]^T, one BLOCK_M x BLOCK_N tile per
    program (2-D grid, num_warps=4): the K slices of A and Bt go through an
    S-stage ring filled by cp.async and read by wgmma straight from shared
    memory. Both operands are K-major, as the wgmma lowering wants. Rows
    past M / N and columns past K are zero-filled, so they add nothing."""
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    sA = txl.smem_alloc([BLOCK_M, BLOCK_K], dtype=DT, num_stages=S)
    sB = txl.smem_alloc([BLOCK_N, BLOCK_K], dtype=DT, num_stages=S)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = bt_ptr + offs_n[:, None] * stride_btn + offs_k[None, :]
    m_ok = offs_m[:, None] < M
    n_ok = offs_n[:, None] < N
    num_k = tl.cdiv(K, BLOCK_K)

    # Prologue: slices 0 .. S-2. Two async_loads per slice: two groups.
    for i in tl.static_range(S - 1):
        k_ok = (i * BLOCK_K + offs_k)[None, :] < K
        txl.async_load(txl.get_buffer(sA, i), a_ptrs + i * BLOCK_K,
                       mask=m_ok & k_ok)
        txl.async_load(txl.get_buffer(sB, i), b_ptrs + i * BLOCK_K,
                       mask=n_ok & k_ok)

    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, num_k):
        # Slice k's two groups are done; the last S - 2 slices' (two
        # groups each) may still be in flight.
        txl.async_load_wait(2 * (S - 2))
        # Refill stage (k - 1) % S with slice k + S - 1 while slice k
        # multiplies: slice k - 1's wgmma was retired by dot_wait(0) in
        # every thread before the barrier of the wait above.
        nk = k + S - 1
        ns = nk % S
        k_ok = (nk * BLOCK_K + offs_k)[None, :] < K
        txl.async_load(txl.get_buffer(sA, ns), a_ptrs + nk * BLOCK_K,
                       mask=m_ok & k_ok)
        txl.async_load(txl.get_buffer(sB, ns), b_ptrs + nk * BLOCK_K,
                       mask=n_ok & k_ok)

        s = k % S
        acc = tl.dot(txl.get_buffer(sA, s), txl.get_buffer(sB, s).T, acc)
        txl.dot_wait(0)

    txl.async_load_wait(0)
    offs_cn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_cn[None, :]
    tl.store(c_ptrs, acc, mask=m_ok & (offs_cn[None, :] < N))


@txl.jit
def tracked_ring_copy(x_ptr, y_ptr, M, N, stride_xm, stride_ym,
                      BM: tl.constexpr, BN: tl.constexpr, S: tl.constexpr,
                      DT: tl.constexpr, POISON: tl.constexpr):
    """y[:M, :N] = x[:M, :N] through an S-stage shared ring handed from a
    producer warpgroup to a consumer warpgroup (num_warpgroups=2) with no
    cp.async wait at all: the producer issues txl.async_load into a stage
    and arrives on the stage's `ready` barrier with
    mbar_arrive(track_async_op=True), which fires only once that thread's
    copies have landed. `ready` counts the producer's 128 threads (the
    arrivals are .noinc: they count against mbar_alloc's count); `free`
    counts the consumer's 128 plain arrivals. Every stage is poisoned first,
    so a consumer that read a stage before its copies landed would store
    POISON (or the previous tile) instead of x."""
    offs_m = tl.arange(0, BM)
    offs_n = tl.program_id(0) * BN + tl.arange(0, BN)
    col_ok = offs_n[None, :] < N
    ring = txl.smem_alloc([BM, BN], dtype=DT, num_stages=S)
    ready = txl.mbar_alloc(128, num_stages=S)
    free = txl.mbar_alloc(128, num_stages=S)
    for i in tl.static_range(S):
        txl.smem_store(txl.get_buffer(ring, i), tl.full([BM, BN], POISON, DT))
    # smem_store synchronizes its own warpgroup only: both warpgroups'
    # poison is written before any copy starts.
    tl.debug_barrier()
    num_tiles = tl.cdiv(M, BM)
    if txl.is_warpgroup([0]):
        for t in range(0, num_tiles):
            s = t % S
            # The first pass over the ring finds every stage free.
            if t >= S:
                txl.mbar_wait(txl.get_buffer(free, s), (t // S - 1) % 2)
            rows = t * BM + offs_m
            src = x_ptr + rows[:, None] * stride_xm + offs_n[None, :]
            txl.async_load(txl.get_buffer(ring, s), src,
                           mask=(rows[:, None] < M) & col_ok)
            txl.mbar_arrive(txl.get_buffer(ready, s), track_async_op=True)
    else:
        for t in range(0, num_tiles):
            s = t % S
            txl.mbar_wait(txl.get_buffer(ready, s), (t // S) % 2)
            tile = txl.smem_load(txl.get_buffer(ring, s))
            rows = t * BM + offs_m
            dst = y_ptr + rows[:, None] * stride_ym + offs_n[None, :]
            tl.store(dst, tile, mask=(rows[:, None] < M) & col_ok)
            txl.mbar_arrive(txl.get_buffer(free, s))

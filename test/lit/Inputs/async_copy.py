import triton.language as tl
import txl


@txl.jit
def staged_copy(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    # Two rows of BLOCK elements, copied into a two-stage buffer with cp.async.
    offs = tl.arange(0, BLOCK)
    bufs = txl.smem_alloc([BLOCK], dtype=tl.float16, num_stages=2)
    txl.async_load(txl.get_buffer(bufs, 0), x_ptr + offs, mask=offs < N)
    txl.async_load(txl.get_buffer(bufs, 1), x_ptr + N + offs, mask=offs < N)
    txl.async_load_wait(1)
    tl.store(y_ptr + offs, txl.smem_load(txl.get_buffer(bufs, 0)), mask=offs < N)
    txl.async_load_wait(0)
    tl.store(y_ptr + N + offs, txl.smem_load(txl.get_buffer(bufs, 1)),
             mask=offs < N)


@txl.jit
def matmul_stages(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr, STAGES: tl.constexpr):
    # One tile of C = A @ B (row-major, A is BM x K, B is K x BN).
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, K // BK, num_stages=STAGES):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@txl.jit
def unrolled_narrow(x_ptr, N, BLOCK: tl.constexpr):
    # Three unrolled copies of one narrow async_load: one error, not three.
    offs = tl.arange(0, BLOCK)
    bufs = txl.smem_alloc([BLOCK], dtype=tl.float16, num_stages=4)
    for i in tl.static_range(3):
        txl.async_load(txl.get_buffer(bufs, i), x_ptr + i * N + offs, mask=offs < N)
    txl.async_load_wait(0)

"""Kernels for the test_core compatibility classes of session 9 (plain
Triton source): scalar atomics whose old value is unused, tl.dot with
fp16/bf16/fp64 results and every fp32 input_precision."""
import triton.language as tl
import txl


@txl.jit
def atomic_scalar_noret_kernel(ptr, x_ptr, OP: tl.constexpr,
                               SEM: tl.constexpr):
    """Program i adds x[i] into ptr[0] (or takes the max/min); the old
    value is never read, as in Triton's test_atomic_rmw."""
    x = tl.load(x_ptr + tl.program_id(0))
    if OP == "add":
        tl.atomic_add(ptr, x, sem=SEM)
    elif OP == "max":
        tl.atomic_max(ptr, x, sem=SEM)
    else:
        tl.atomic_min(ptr, x, sem=SEM)


@txl.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, out_ptr, M, N, K, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr, OUT: tl.constexpr,
               PRECISION: tl.constexpr, HAS_ACC: tl.constexpr):
    """out = a @ b (+ c) as one [BM, BN] tile: a is [M, K], b [K, N], c and
    out [M, N], all row-major; the tile's parts beyond M, N, K are masked."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :],
                mask=(rm[:, None] < M) & (rk[None, :] < K), other=0)
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :],
                mask=(rk[:, None] < K) & (rn[None, :] < N), other=0)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    if HAS_ACC:
        c = tl.load(c_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=0)
        d = tl.dot(a, b, c, input_precision=PRECISION, out_dtype=OUT)
    else:
        d = tl.dot(a, b, input_precision=PRECISION, out_dtype=OUT)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], d, mask=mask)


@txl.jit
def dot_loop_kernel(a_ptr, b_ptr, out_ptr, M, N, K, BM: tl.constexpr,
                    BN: tl.constexpr, BK: tl.constexpr, OUT: tl.constexpr,
                    PRECISION: tl.constexpr):
    """out[tile] = a @ b over K in BK steps, accumulating in OUT (the
    loop-carried accumulator of a GEMM); program (i, j) does tile (i, j)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=OUT)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :],
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :],
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION, out_dtype=OUT)
    tl.store(out_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@txl.jit
def cas_item_lock_kernel(data_ptr, lock_ptr, DT: tl.constexpr,
                         SEM: tl.constexpr):
    """Every program adds 1 to 128 elements inside a spin lock taken with
    atomic_cas; the lock's values come from one-element tensors' item()."""
    zero = tl.full((1,), 0, dtype=DT).item()
    one = tl.full((1,), 1, dtype=DT).item()
    ptrs = data_ptr + tl.arange(0, 128)
    while tl.atomic_cas(lock_ptr, zero, one, SEM) == 1:
        pass
    tl.store(ptrs, tl.load(ptrs) + 1.0)
    tl.debug_barrier()
    tl.atomic_xchg(lock_ptr, zero)


@txl.jit
def split_scalar_kernel(x_ptr, lo_ptr, hi_ptr):
    """tl.split of a 2-element tensor gives two scalars."""
    x = tl.load(x_ptr + tl.arange(0, 2))
    lo, hi = tl.split(x)
    tl.store(lo_ptr + tl.program_id(0), lo)
    tl.store(hi_ptr + tl.program_id(0), hi)


@txl.jit
def shift_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out = x >> y, both operands promoted to their common type."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, x >> y, mask=m)


@txl.jit
def cuda_extra_kernel(out_ptr, sm_ptr):
    """tl.extra.cuda.num_threads() as a constexpr; smid per program."""
    n: tl.constexpr = tl.extra.cuda.num_threads()
    offs = tl.arange(0, n)
    tl.store(out_ptr + tl.program_id(0) * n + offs, offs + 1)
    tl.store(sm_ptr + tl.program_id(0), tl.extra.cuda.smid())


@txl.jit
def reduce_keep_dims_3d_kernel(x_ptr, z_ptr, BM: tl.constexpr, BN: tl.constexpr,
                               BK: tl.constexpr):
    """z[0] = sum of a [BM, BN, BK] tile with keep_dims: the scalar pointer
    is indexed [None, None, None, :] (the last ':' past its rank, as Triton
    allows) to a [1, 1, 1] pointer tensor."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x = tl.load(x_ptr + rm[:, None, None] * BN * BK + rn[None, :, None] * BK +
                rk[None, None, :])
    z = tl.sum(x, axis=None, keep_dims=True)
    ones = 1
    tl.store(z_ptr[None, None, None, :], z + ones.dtype.primitive_bitwidth)


@txl.jit
def atomic_float_minmax_kernel(x_ptr, max_ptr, min_ptr, SLOTS: tl.constexpr):
    """Program i folds x[i] into slot i % SLOTS of max_ptr and min_ptr."""
    i = tl.program_id(0)
    x = tl.load(x_ptr + i)
    tl.atomic_max(max_ptr + i % SLOTS, x)
    tl.atomic_min(min_ptr + i % SLOTS, x)

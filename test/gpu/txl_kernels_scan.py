"""Kernels for tl.cumsum / tl.cumprod / tl.associative_scan, tl.reduce_or,
tl.histogram, tl.sort / tl.topk and integer tl.dot (plain Triton source).
Every kernel masks a ragged tail; masked-off elements are loaded as the
combine function's identity so they cannot change the in-range results."""
import triton
import triton.language as tl
import txl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _affine(a1, b1, a2, b2):
    """Composition of x -> a1*x + b1 then x -> a2*x + b2: associative, not
    commutative (a first-order linear recurrence)."""
    return a2 * a1, a2 * b1 + b2


@triton.jit
def _last_nonzero(a, b):
    """b if b != 0 else a: associative, not commutative."""
    return tl.where(b != 0, b, a)


@txl.jit
def cumsum_1d_kernel(x_ptr, out_ptr, n, REVERSE: tl.constexpr,
                     BLOCK: tl.constexpr):
    """out = cumsum(x) of each BLOCK-element block (tail masked to 0)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + offs, tl.cumsum(x, 0, reverse=REVERSE), mask=m)


@txl.jit
def cumsum_2d_kernel(x_ptr, out_ptr, M, N, AXIS: tl.constexpr,
                     REVERSE: tl.constexpr, BM: tl.constexpr,
                     BN: tl.constexpr):
    """out = x.cumsum(AXIS) of the one [BM, BN] block (rows >= M and
    columns >= N masked to 0)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * N + rn[None, :]
    m = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + offs, x.cumsum(AXIS, reverse=REVERSE), mask=m)


@txl.jit
def cumprod_2d_kernel(x_ptr, out_ptr, M, N, AXIS: tl.constexpr,
                      REVERSE: tl.constexpr, BM: tl.constexpr,
                      BN: tl.constexpr):
    """out = cumprod(x, AXIS) of the one [BM, BN] block (masked to 1)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * N + rn[None, :]
    m = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + offs, mask=m, other=1)
    tl.store(out_ptr + offs, tl.cumprod(x, AXIS, reverse=REVERSE), mask=m)


@txl.jit
def cumsum_small_int_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """int8 input: cumsum widens to int32 (Triton's rule), stored as int32."""
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    y = tl.cumsum(x)
    tl.static_assert(y.dtype == tl.int32)
    tl.store(out_ptr + offs, y, mask=m)


@txl.jit
def linear_recurrence_kernel(a_ptr, b_ptr, out_ptr, n, REVERSE: tl.constexpr,
                             BLOCK: tl.constexpr):
    """h_i = a_i * h_{i-1} + b_i (h_{-1} = 0) by a tuple associative_scan
    with a non-commutative combine; the tail is the identity (1, 0)."""
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(a_ptr + offs, mask=m, other=1.0)
    b = tl.load(b_ptr + offs, mask=m, other=0.0)
    _, h = tl.associative_scan((a, b), 0, _affine, reverse=REVERSE)
    tl.store(out_ptr + offs, h, mask=m)


@txl.jit
def fill_forward_kernel(x_ptr, out_ptr, M, N: tl.constexpr,
                        BM: tl.constexpr):
    """Each row: every zero replaced by the last non-zero before it (a
    non-commutative scan along axis 1), rows past M masked."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, N)
    offs = rm[:, None] * N + rn[None, :]
    m = rm[:, None] < M
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + offs, tl.associative_scan(x, 1, _last_nonzero),
             mask=m)


@txl.jit
def int8_dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, ACC_ARG: tl.constexpr,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c = a @ b for int8 a [M, K], b [K, N] (row-major) into int32 c;
    ragged edges masked to 0. ACC_ARG: accumulate through tl.dot's acc
    argument (out_dtype=tl.int32) instead of `acc += tl.dot(a, b)`."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        ka = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ka[None, :],
                    mask=(rm[:, None] < M) & (ka[None, :] < K), other=0)
        b = tl.load(b_ptr + ka[:, None] * N + rn[None, :],
                    mask=(ka[:, None] < K) & (rn[None, :] < N), other=0)
        if ACC_ARG:
            acc = tl.dot(a, b, acc, out_dtype=tl.int32)
        else:
            acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@txl.jit
def histogram_kernel(x_ptr, out_ptr, n, NUM_BINS: tl.constexpr,
                     BLOCK: tl.constexpr):
    """out = histogram of the first n elements of x (one BLOCK; the tail is
    excluded by the mask, not by its value)."""
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    h = tl.histogram(x, NUM_BINS, mask=m)
    tl.store(out_ptr + tl.arange(0, NUM_BINS), h)


@txl.jit
def histogram_2d_source_kernel(x_ptr, out_ptr, NUM_BINS: tl.constexpr,
                               BM: tl.constexpr, BN: tl.constexpr):
    """histogram of a [BM, BN] tile raveled (an input layout with two
    dimensions' worth of lanes and warps), no mask."""
    r = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.ravel(tl.load(x_ptr + r))
    tl.store(out_ptr + tl.arange(0, NUM_BINS), x.histogram(NUM_BINS))


@txl.jit
def reduce_or_kernel(x_ptr, out_ptr, M, N: tl.constexpr, BM: tl.constexpr):
    """out[i] = OR of row i (rows past M masked)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, N)
    m = rm[:, None] < M
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=m, other=0)
    tl.store(out_ptr + rm, tl.reduce_or(x, 1), mask=rm < M)


@txl.jit
def sort_kernel(x_ptr, out_ptr, M, N: tl.constexpr, BM: tl.constexpr,
                DESCENDING: tl.constexpr):
    """Each row sorted (rows past M masked)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, N)
    offs = rm[:, None] * N + rn[None, :]
    m = rm[:, None] < M
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + offs, tl.sort(x, descending=DESCENDING), mask=m)


@txl.jit
def topk_kernel(x_ptr, out_ptr, M, N: tl.constexpr, K: tl.constexpr,
                BM: tl.constexpr):
    """The K largest of each row, largest first."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, N)
    m = rm[:, None] < M
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=m, other=0)
    rk = tl.arange(0, K)
    tl.store(out_ptr + rm[:, None] * K + rk[None, :], tl.topk(x, K), mask=m)


@txl.jit
def bitonic_merge_kernel(x_ptr, out_ptr, N: tl.constexpr,
                         DESCENDING: tl.constexpr):
    """Sorts one bitonic row of N (an ascending then a descending half)."""
    r = tl.arange(0, N)
    tl.store(out_ptr + r, tl.bitonic_merge(tl.load(x_ptr + r),
                                           descending=DESCENDING))

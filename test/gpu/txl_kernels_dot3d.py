"""Kernels for batched and N-D tl.dot (plain Triton source): a masked
[B, M, K] x [B, K, N] tile product with strides and an optional
accumulator, the same with K walked in a loop (a loop-carried batched
accumulator), and Triton's test_dot_multidim shape (rank 3 to 6, leading
dims flattened, tl.trans without dims swapping the last two)."""
import triton.language as tl
import txl


@txl.jit
def dot3d_kernel(a_ptr, b_ptr, c_ptr, out_ptr, B, M, N, K,
                 sab, sam, sak, sbb, sbk, sbn, scb, scm, scn,
                 BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                 BK: tl.constexpr, OUT: tl.constexpr, PRECISION: tl.constexpr,
                 HAS_ACC: tl.constexpr):
    """out[b] = a[b] @ b[b] (+ c[b]) for the [BB, BM, BN] tile of program
    (m, n, batch); elements beyond B, M, N, K are masked (zeros in K)."""
    rb = tl.program_id(2) * BB + tl.arange(0, BB)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    b3, m3, n3 = rb[:, None, None], rm[None, :, None], rn[None, None, :]
    ka, kb = rk[None, None, :], rk[None, :, None]
    a = tl.load(a_ptr + b3 * sab + m3 * sam + ka * sak,
                mask=(b3 < B) & (m3 < M) & (ka < K), other=0)
    bt = tl.load(b_ptr + b3 * sbb + kb * sbk + n3 * sbn,
                 mask=(b3 < B) & (kb < K) & (n3 < N), other=0)
    out_mask = (b3 < B) & (m3 < M) & (n3 < N)
    c_ptrs = b3 * scb + m3 * scm + n3 * scn
    if HAS_ACC:
        acc = tl.load(c_ptr + c_ptrs, mask=out_mask, other=0)
        d = tl.dot(a, bt, acc, input_precision=PRECISION, out_dtype=OUT)
    else:
        d = tl.dot(a, bt, input_precision=PRECISION, out_dtype=OUT)
    tl.store(out_ptr + c_ptrs, d, mask=out_mask)


@txl.jit
def dot3d_loop_kernel(a_ptr, b_ptr, out_ptr, B, M, N, K,
                      BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                      BK: tl.constexpr, OUT: tl.constexpr):
    """Contiguous a [B, M, K], b [B, K, N], out [B, M, N]: the K loop adds
    each step's batched dot into a loop-carried accumulator."""
    rb = tl.program_id(2) * BB + tl.arange(0, BB)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    b3, m3, n3 = rb[:, None, None], rm[None, :, None], rn[None, None, :]
    acc = tl.zeros((BB, BM, BN), dtype=OUT)
    for k0 in range(0, K, BK):
        ka, kb = k0 + rk[None, None, :], k0 + rk[None, :, None]
        a = tl.load(a_ptr + b3 * M * K + m3 * K + ka,
                    mask=(b3 < B) & (m3 < M) & (ka < K), other=0)
        bt = tl.load(b_ptr + b3 * K * N + kb * N + n3,
                     mask=(b3 < B) & (kb < K) & (n3 < N), other=0)
        acc += tl.dot(a, bt, out_dtype=OUT)
    tl.store(out_ptr + b3 * M * N + m3 * N + n3, acc,
             mask=(b3 < B) & (m3 < M) & (n3 < N))


@txl.jit
def dot_multidim_kernel(x_ptr, y_ptr, z_ptr, RANK: tl.constexpr,
                        TRANS_A: tl.constexpr, TRANS_B: tl.constexpr):
    """Triton's test_dot_multidim: [2] * (RANK - 2) + [32, 32] operands."""
    x = tl.load(x_ptr + tl.arange(0, 256 << RANK)).reshape(
        [2] * (RANK - 2) + [32, 32])
    y = tl.load(y_ptr + tl.arange(0, 256 << RANK)).reshape(
        [2] * (RANK - 2) + [32, 32])
    if TRANS_A:
        x = tl.trans(x)
    if TRANS_B:
        y = tl.trans(y)
    z = tl.dot(x, y)
    tl.store(z_ptr + tl.arange(0, 256 << RANK), z.reshape([256 << RANK]))

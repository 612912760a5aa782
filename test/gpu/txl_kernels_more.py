"""Kernels for the second batch of tl operations (plain Triton source):
tl.gather, tl.inline_asm_elementwise, the libdevice functions called as
__nv_*, tl.cat, tl.swizzle2d, tl.clamp with propagate_nan, and the Python
builtins getattr/enumerate/zip/round in kernels. Every kernel masks a
ragged tail; test_tl_ops_more.py runs them against torch."""
import triton.language as tl
import txl


@txl.jit
def gather_2d_kernel(src_ptr, idx_ptr, out_ptr, M, N, K,
                     AXIS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
                     BK: tl.constexpr):
    """out = torch.gather(src, AXIS, idx) for src (M, N) and idx (K, N)
    (AXIS 0) or (M, K) (AXIS 1), in one block of (BM, BN) / (BK, BN)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    src = tl.load(src_ptr + rm[:, None] * N + rn[None, :],
                  mask=(rm[:, None] < M) & (rn[None, :] < N), other=0)
    rk = tl.arange(0, BK)
    if AXIS == 0:
        offs = rk[:, None] * N + rn[None, :]
        m = (rk[:, None] < K) & (rn[None, :] < N)
    else:
        offs = rm[:, None] * K + rk[None, :]
        m = (rm[:, None] < M) & (rk[None, :] < K)
    idx = tl.load(idx_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + offs, tl.gather(src, idx, AXIS), mask=m)


@txl.jit
def gather_1d_kernel(src_ptr, idx_ptr, out_ptr, n, k, BN: tl.constexpr,
                     BK: tl.constexpr):
    """out[i] = src[idx[i]] (idx in [0, n)); negative axis spelling."""
    rn = tl.arange(0, BN)
    src = tl.load(src_ptr + rn, mask=rn < n, other=0)
    rk = tl.arange(0, BK)
    idx = tl.load(idx_ptr + rk, mask=rk < k, other=0)
    tl.store(out_ptr + rk, tl.gather(src, idx, -1), mask=rk < k)


@txl.jit
def asm_shift_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out = x << 3 by one shl.b32 per element (pack=1)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;", "=r,r", [x],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(out_ptr + offs, y, mask=offs < n)


@txl.jit
def asm_two_results_kernel(x_ptr, y_ptr, s_ptr, d_ptr, n, BLOCK: tl.constexpr):
    """(s, d) = (x + y, x - y): two results, a tuple dtype."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    s, d = tl.inline_asm_elementwise(
        "add.f32 $0, $2, $3;\n\tsub.f32 $1, $2, $3;", "=f,=f,f,f", [x, y],
        dtype=(tl.float32, tl.float32), is_pure=True, pack=1)
    tl.store(s_ptr + offs, s, mask=m)
    tl.store(d_ptr + offs, d, mask=m)


@txl.jit
def asm_widen_i8_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out = int32(x) + 1 for int8 x, four x packed in one .b32 (pack=4)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    y = tl.inline_asm_elementwise(
        """{
        .reg .b8 q<4>;
        mov.b32 {q0, q1, q2, q3}, $4;
        cvt.s32.s8 $0, q0;
        cvt.s32.s8 $1, q1;
        cvt.s32.s8 $2, q2;
        cvt.s32.s8 $3, q3;
        add.s32 $0, $0, 1;
        add.s32 $1, $1, 1;
        add.s32 $2, $2, 1;
        add.s32 $3, $3, 1;
        }""", "=r,=r,=r,=r,r", [x], dtype=tl.int32, is_pure=True, pack=4)
    tl.store(out_ptr + offs, y, mask=offs < n)


@txl.jit
def asm_half2_kernel(x_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    """out = x * scale for fp16 x, two halves per f16x2 multiply (pack=2);
    `scale` (an fp16 scalar broadcast to the block) is packed the same."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    y = tl.inline_asm_elementwise("mul.rn.f16x2 $0, $1, $2;", "=r,r,r",
                                  [x, scale.to(tl.float16)], dtype=tl.float16,
                                  is_pure=True, pack=2)
    tl.store(out_ptr + offs, y, mask=offs < n)


@txl.jit
def libdevice_more_kernel(x_ptr, y_ptr, out_ptr, n, FN: tl.constexpr,
                          BLOCK: tl.constexpr):
    """out = libdevice.FN(x) or FN(x, y) (getattr on the module), masked."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    y = tl.load(y_ptr + offs, mask=m, other=1)
    fn = getattr(tl.extra.cuda.libdevice, FN)
    if FN in ("hypot", "fmod", "copysign", "ldexp", "fmax", "fmin"):
        r = fn(x, y)
    else:
        r = fn(x)
    if FN in ("isnan", "isinf"):
        tl.static_assert(r.dtype == tl.int1)
        r = r.to(tl.int32)
    tl.store(out_ptr + offs, r, mask=m)


@txl.jit
def exp2_pair_kernel(x_ptr, tl_out_ptr, libdevice_out_ptr, n,
                     BLOCK: tl.constexpr):
    """tl.exp2(x) and libdevice.exp2(x) side by side: one function (as in
    Triton), which flushes fp32 subnormal results under reflect-ftz (the
    default) and keeps them without it."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(tl_out_ptr + offs, tl.exp2(x), mask=m)
    tl.store(libdevice_out_ptr + offs, tl.extra.cuda.libdevice.exp2(x),
             mask=m)


@txl.jit
def cat_kernel(a_ptr, b_ptr, out_ptr, M, N, DIM: tl.constexpr,
               BM: tl.constexpr, BN: tl.constexpr):
    """out = torch.cat([a, b], DIM) of two (M, N) tensors in (BM, BN)
    blocks; the output row length is N (DIM 0) or 2 N (DIM 1)."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    m = (rm[:, None] < M) & (rn[None, :] < N)
    offs = rm[:, None] * N + rn[None, :]
    a = tl.load(a_ptr + offs, mask=m)
    b = tl.load(b_ptr + offs, mask=m)
    c = tl.cat(a, b, can_reorder=True, dim=DIM)
    if DIM == 0:
        ro = tl.arange(0, 2 * BM)
        row = tl.where(ro < BM, ro, ro - BM + M)
        mo = (ro[:, None] < BM) & (ro[:, None] < M) | \
            (ro[:, None] >= BM) & (ro[:, None] - BM < M)
        tl.store(out_ptr + row[:, None] * N + rn[None, :], c,
                 mask=mo & (rn[None, :] < N))
    else:
        co = tl.arange(0, 2 * BN)
        col = tl.where(co < BN, co, co - BN + N)
        mo = (co[None, :] < BN) & (co[None, :] < N) | \
            (co[None, :] >= BN) & (co[None, :] - BN < N)
        tl.store(out_ptr + rm[:, None] * (2 * N) + col[None, :], c,
                 mask=mo & (rm[:, None] < M))


@txl.jit
def cat_1d_kernel(a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    """out = torch.cat([a, b]) (Triton 3.6's spelling: 1-D, can_reorder)."""
    r = tl.arange(0, BLOCK)
    c = tl.cat(tl.load(a_ptr + r), tl.load(b_ptr + r), can_reorder=True)
    tl.store(out_ptr + tl.arange(0, 2 * BLOCK), c)


@txl.jit
def swizzle2d_kernel(i_ptr, j_ptr, size_i, size_j, size_g,
                     BI: tl.constexpr, BJ: tl.constexpr):
    """(i', j') = swizzle2d(i, j, ...) over a size_i x size_j grid."""
    ri = tl.arange(0, BI)[:, None]
    rj = tl.arange(0, BJ)[None, :]
    si, sj = tl.swizzle2d(ri, rj, size_i, size_j, size_g)
    m = (ri < size_i) & (rj < size_j)
    tl.store(i_ptr + ri * size_j + rj, si, mask=m)
    tl.store(j_ptr + ri * size_j + rj, sj, mask=m)


@txl.jit
def clamp_kernel(x_ptr, out_ptr, n, lo, hi, PROPAGATE: tl.constexpr,
                 BLOCK: tl.constexpr):
    """out = clamp(x, lo, hi), NaN-propagating when PROPAGATE."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    if PROPAGATE:
        r = tl.clamp(x, lo, hi, propagate_nan=tl.PropagateNan.ALL)
    else:
        r = tl.clamp(x, lo, hi)
    tl.store(out_ptr + offs, r, mask=offs < n)


@txl.jit
def builtins_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out = sum_k w_k * x for (k, w_k) in enumerate(zip(...)), with a
    round()ed constant: exercises enumerate, zip and round in a kernel."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for k, (a, b) in enumerate(zip((1.0, 2.0, 3.0), (0.5, 0.25, 0.125))):
        acc += (k + a * b) * x
    acc += round(2.6) * x
    tl.store(out_ptr + offs, acc, mask=offs < n)


@txl.jit
def desc_functions_kernel(x_ptr, out_ptr, M, N, stride_x, stride_o,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """out = 3 * x through tl.load_tensor_descriptor and
    tl.store_tensor_descriptor (the function spellings of desc.load and
    desc.store); ragged edges are TMA's (zeros in, dropped out)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N],
                                       strides=[stride_x, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    o_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N],
                                       strides=[stride_o, 1],
                                       block_shape=[BLOCK_M, BLOCK_N])
    offsets = [pid_m * BLOCK_M, pid_n * BLOCK_N]
    x = tl.load_tensor_descriptor(x_desc, offsets)
    tl.store_tensor_descriptor(o_desc, offsets, x * 3)


@txl.jit
def _selu_scalar(x, alpha):
    return tl.where(x > 0, x, alpha * (tl.exp(x) - 1))


@txl.jit
def _sum_diff(x, y):
    return x + y, x - y


@txl.jit
def _scale_pair(x0, x1, s0, s1):
    return x0 * s0, x1 * s1


@txl.jit
def map_elementwise_kernel(x_ptr, y_ptr, a_ptr, b_ptr, c_ptr, n, alpha,
                           BLOCK: tl.constexpr):
    """a = selu(x, alpha) (a scalar argument broadcast), (b, c) = (x + y,
    x - y) (two results), via tl.map_elementwise; then c *= 2 with pack=2."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    a = tl.map_elementwise(_selu_scalar, x, alpha)
    b, c = tl.map_elementwise(_sum_diff, x, y)
    (c2,) = tl.map_elementwise(_scale_pair, c, 2.0, pack=2)
    tl.store(a_ptr + offs, a, mask=m)
    tl.store(b_ptr + offs, b, mask=m)
    tl.store(c_ptr + offs, c2, mask=m)

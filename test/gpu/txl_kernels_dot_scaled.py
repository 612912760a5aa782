"""tl.dot_scaled kernels (plain Triton source). One program computes one
[BLOCK_M, BLOCK_N] tile of lhs @ rhs over the whole K (a loop over K
blocks), reading microscaled operands:
  lhs: [M, K] elements, e2m1 packed two per byte along K ([M, K/2] bytes) or,
       with LHS_K_PACK=False, along M ([M/2, K] bytes);
  rhs: [K, N] elements, e2m1 packed along K ([K/2, N]) or along N ([K, N/2]);
  scales: uint8 e8m0, [M, K/32] for lhs and [N, K/32] for rhs, or None
  (nvfp4_matmul / nvfp4_tile: float8e4nv, [M, K/16] and [N, K/16]).
Rows and columns past M and N are masked (ragged tiles)."""
import triton.language as tl
import txl


@txl.jit
def scaled_matmul(a_ptr, stride_am, stride_ak, a_scale, b_ptr, stride_bk,
                  stride_bn, b_scale, c_ptr, M, N, K,
                  A_FMT: tl.constexpr, B_FMT: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, LHS_K_PACK: tl.constexpr,
                  RHS_K_PACK: tl.constexpr, FAST_MATH: tl.constexpr):
    """c[M, N] (fp32) = dot_scaled(a, a_scale, b, b_scale); K % BLOCK_K == 0."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    # How many elements one stored value holds along K, M and N.
    A_PACK_K: tl.constexpr = 2 if A_FMT == "e2m1" and LHS_K_PACK else 1
    A_PACK_M: tl.constexpr = 2 if A_FMT == "e2m1" and not LHS_K_PACK else 1
    B_PACK_K: tl.constexpr = 2 if B_FMT == "e2m1" and RHS_K_PACK else 1
    B_PACK_N: tl.constexpr = 2 if B_FMT == "e2m1" and not RHS_K_PACK else 1
    SCALE_K: tl.constexpr = BLOCK_K // 32
    am = pid_m * (BLOCK_M // A_PACK_M) + tl.arange(0, BLOCK_M // A_PACK_M)
    ak = tl.arange(0, BLOCK_K // A_PACK_K)
    bk = tl.arange(0, BLOCK_K // B_PACK_K)
    bn = pid_n * (BLOCK_N // B_PACK_N) + tl.arange(0, BLOCK_N // B_PACK_N)
    sm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    sn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    sk = tl.arange(0, SCALE_K)
    a_rows = am[:, None] < tl.cdiv(M, A_PACK_M)
    b_cols = bn[None, :] < tl.cdiv(N, B_PACK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + am[:, None] * stride_am +
                    (k0 // A_PACK_K + ak)[None, :] * stride_ak,
                    mask=a_rows, other=0)
        b = tl.load(b_ptr + (k0 // B_PACK_K + bk)[:, None] * stride_bk +
                    bn[None, :] * stride_bn, mask=b_cols, other=0)
        sa = None
        if a_scale is not None:
            sa = tl.load(a_scale + sm[:, None] * (K // 32) +
                         (k0 // 32 + sk)[None, :],
                         mask=sm[:, None] < M, other=127)
        sb = None
        if b_scale is not None:
            sb = tl.load(b_scale + sn[:, None] * (K // 32) +
                         (k0 // 32 + sk)[None, :],
                         mask=sn[:, None] < N, other=127)
        acc = tl.dot_scaled(a, sa, A_FMT, b, sb, B_FMT, acc=acc,
                            fast_math=FAST_MATH, lhs_k_pack=LHS_K_PACK,
                            rhs_k_pack=RHS_K_PACK)
    cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + cm[:, None] * N + cn[None, :], acc,
             mask=(cm[:, None] < M) & (cn[None, :] < N))


@txl.jit
def triton_test_core_kernel(a_base, stride_a0, stride_a1, a_scale, b_base,
                            stride_b0, stride_b1, b_scale, out,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                            BLOCK_K: tl.constexpr, type_a: tl.constexpr,
                            type_b: tl.constexpr):
    """The shape of Triton's test_scaled_dot kernel: one tile, bf16 out."""
    DIV_A: tl.constexpr = 2 if type_a == "e2m1" else 1
    DIV_B: tl.constexpr = 2 if type_b == "e2m1" else 1
    a_ptr = (a_base + tl.arange(0, BLOCK_M)[:, None] * stride_a0 +
             tl.arange(0, BLOCK_K // DIV_A)[None, :] * stride_a1)
    b_ptr = (b_base + tl.arange(0, BLOCK_K // DIV_B)[:, None] * stride_b0 +
             tl.arange(0, BLOCK_N)[None, :] * stride_b1)
    a = tl.load(a_ptr)
    b = tl.load(b_ptr)
    SCALE_K: tl.constexpr = BLOCK_K // 32
    if a_scale is not None:
        a_scale = tl.load(a_scale + tl.arange(0, BLOCK_M)[:, None] * SCALE_K +
                          tl.arange(0, SCALE_K)[None, :])
    if b_scale is not None:
        b_scale = tl.load(b_scale + tl.arange(0, BLOCK_N)[:, None] * SCALE_K +
                          tl.arange(0, SCALE_K)[None, :])
    c = tl.dot_scaled(a, a_scale, type_a, b, b_scale, type_b)
    tl.store(out + tl.arange(0, BLOCK_M)[:, None] * BLOCK_N +
             tl.arange(0, BLOCK_N)[None, :], c.to(tl.bfloat16))


@txl.jit
def nvfp4_matmul(a_ptr, a_scale, b_ptr, b_scale, c_ptr, M, N, K,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 BLOCK_K: tl.constexpr):
    """c[M, N] (fp32) = dot_scaled in NVIDIA's nvfp4: a [M, K/2] and b
    [K/2, N] bytes of e2m1 packed along K (row-major), a_scale [M, K/16]
    and b_scale [N, K/16] float8e4nv factors, one per 16 K elements.
    K % BLOCK_K == 0; rows and columns past M and N are masked."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    SCALE_K: tl.constexpr = BLOCK_K // 16
    am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ak = tl.arange(0, BLOCK_K // 2)
    sk = tl.arange(0, SCALE_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + am[:, None] * (K // 2) + (k0 // 2 + ak)[None, :],
                    mask=am[:, None] < M, other=0)
        b = tl.load(b_ptr + (k0 // 2 + ak)[:, None] * N + bn[None, :],
                    mask=bn[None, :] < N, other=0)
        sa = tl.load(a_scale + am[:, None] * (K // 16) +
                     (k0 // 16 + sk)[None, :], mask=am[:, None] < M)
        sb = tl.load(b_scale + bn[:, None] * (K // 16) +
                     (k0 // 16 + sk)[None, :], mask=bn[:, None] < N)
        acc = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1", acc=acc)
    tl.store(c_ptr + am[:, None] * N + bn[None, :], acc,
             mask=(am[:, None] < M) & (bn[None, :] < N))


@txl.jit
def nvfp4_tile(a_ptr, a_scale, b_ptr, b_scale, c_ptr,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_K: tl.constexpr):
    """One nvfp4 tile without a K loop (c = dot_scaled, no accumulator):
    the synchronous form. Layouts as nvfp4_matmul's with M, N, K = BLOCK_*."""
    SCALE_K: tl.constexpr = BLOCK_K // 16
    am = tl.arange(0, BLOCK_M)
    bn = tl.arange(0, BLOCK_N)
    ak = tl.arange(0, BLOCK_K // 2)
    sk = tl.arange(0, SCALE_K)
    a = tl.load(a_ptr + am[:, None] * (BLOCK_K // 2) + ak[None, :])
    b = tl.load(b_ptr + ak[:, None] * BLOCK_N + bn[None, :])
    sa = tl.load(a_scale + am[:, None] * SCALE_K + sk[None, :])
    sb = tl.load(b_scale + bn[:, None] * SCALE_K + sk[None, :])
    c = tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1")
    tl.store(c_ptr + am[:, None] * BLOCK_N + bn[None, :], c)

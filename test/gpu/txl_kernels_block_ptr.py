"""Block-pointer kernels (tl.make_block_ptr / tl.advance) for
test_block_ptr.py; a module of their own so txlc can compile them."""

import triton.language as tl
import txl


@txl.jit
def bp_matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """C = A @ B, the K loop walking block pointers (tl.advance); ragged
    edges handled by boundary_check with zero padding."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_blk = tl.make_block_ptr(a_ptr, (M, K), (sam, sak), (pid_m * BM, 0),
                              (BM, BK), (1, 0))
    b_blk = tl.make_block_ptr(b_ptr, (K, N), (sbk, sbn), (0, pid_n * BN),
                              (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_blk, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(a, b)
        a_blk = tl.advance(a_blk, (0, BK))
        b_blk = tl.advance(b_blk, (BK, 0))
    c_blk = tl.make_block_ptr(c_ptr, (M, N), (scm, scn),
                              (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(c_blk, acc.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@txl.jit
def bp_pad(x_ptr, y_ptr, M, N, sxm, sxn, BM: tl.constexpr, BN: tl.constexpr,
           NAN: tl.constexpr):
    """y (whole tiles, row-major BN-wide rows per tile column) = x padded
    with 0 or NaN past its edges: the block is checked on both dimensions
    when loading, and stored unchecked into the padded output."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    src = tl.make_block_ptr(x_ptr, (M, N), (sxm, sxn), (pid_m * BM, pid_n * BN),
                            (BM, BN), (1, 0))
    if NAN:
        tile = tl.load(src, boundary_check=(0, 1), padding_option="nan")
    else:
        tile = tl.load(src, boundary_check=(0, 1))
    ld = tl.num_programs(1) * BN
    dst = tl.make_block_ptr(y_ptr, (tl.num_programs(0) * BM, ld), (ld, 1),
                            (pid_m * BM, pid_n * BN), (BM, BN), (1, 0))
    tl.store(dst, tile)

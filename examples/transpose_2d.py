"""Masked 2-D tiles: a copy and a transpose of an M x N matrix.

Each program owns one BLOCK_M x BLOCK_N tile; row and column offsets are
combined with broadcasting (`[:, None]` and `[None, :]`) into 2-D pointer and
mask tensors.
"""
import triton
import triton.language as tl


@triton.jit
def _tile_offsets(pid_m, pid_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    return rows, cols


@triton.jit
def copy_2d_kernel(src, dst, M, N, stride_sm, stride_dm,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows, cols = _tile_offsets(tl.program_id(0), tl.program_id(1), BLOCK_M,
                               BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(src + rows[:, None] * stride_sm + cols[None, :], mask=mask)
    tl.store(dst + rows[:, None] * stride_dm + cols[None, :], tile, mask=mask)


@triton.jit
def transpose_kernel(src, dst, M, N, stride_sm, stride_dn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows, cols = _tile_offsets(tl.program_id(0), tl.program_id(1), BLOCK_M,
                               BLOCK_N)
    in_mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(src + rows[:, None] * stride_sm + cols[None, :],
                   mask=in_mask, other=0.0)
    # dst is N x M: element (r, c) of the tile goes to dst[c, r].
    out_ptrs = dst + cols[:, None] * stride_dn + rows[None, :]
    tl.store(out_ptrs, tl.trans(tile), mask=in_mask.T)

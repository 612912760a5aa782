"""tl.split kernels (plain Triton source): Triton's epilogue idiom that
halves a tile's columns, x.reshape([M, 2, N // 2]).permute(0, 2, 1).split(),
on a tl.dot accumulator and on a loaded tile, and tl.split of a tensor
whose last dimension is 2 (interleaved pairs)."""
import triton.language as tl
import txl


@txl.jit
def dot_halves(a_ptr, b_ptr, left_ptr, right_ptr, BM: tl.constexpr,
               BN: tl.constexpr, BK: tl.constexpr):
    """left = (A @ B)[:, :BN/2], right = (A @ B)[:, BN/2:], one tile."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    acc = tl.dot(a, b)
    left, right = acc.reshape([BM, 2, BN // 2]).permute(0, 2, 1).split()
    rh = tl.arange(0, BN // 2)
    out = rm[:, None] * (BN // 2) + rh[None, :]
    tl.store(left_ptr + out, left.to(tl.float16))
    tl.store(right_ptr + out, right.to(tl.float16))


@txl.jit
def tile_halves(x_ptr, left_ptr, right_ptr, M: tl.constexpr,
                N: tl.constexpr):
    """The same idiom on a loaded tile: left/right column halves, scaled
    differently so that swapped halves would show."""
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    left, right = tl.split(tl.permute(tl.reshape(x, [M, 2, N // 2]),
                                      (0, 2, 1)))
    rh = tl.arange(0, N // 2)
    out = rm[:, None] * (N // 2) + rh[None, :]
    tl.store(left_ptr + out, left * 2.0)
    tl.store(right_ptr + out, right * 3.0)


@txl.jit
def pairs(x_ptr, even_ptr, odd_ptr, M: tl.constexpr):
    """x [M, 2] -> its two columns."""
    rm = tl.arange(0, M)
    r2 = tl.arange(0, 2)
    x = tl.load(x_ptr + rm[:, None] * 2 + r2[None, :])
    even, odd = tl.split(x)
    tl.store(even_ptr + rm, even)
    tl.store(odd_ptr + rm, odd)


@txl.jit
def vector_halves(x_ptr, lo_ptr, hi_ptr, N: tl.constexpr):
    """The idiom on a 1-D tensor: x.reshape([2, N // 2]).permute(1, 0)."""
    r = tl.arange(0, N)
    x = tl.load(x_ptr + r)
    lo, hi = x.reshape([2, N // 2]).permute(1, 0).split()
    rh = tl.arange(0, N // 2)
    tl.store(lo_ptr + rh, lo)
    tl.store(hi_ptr + rh, hi)

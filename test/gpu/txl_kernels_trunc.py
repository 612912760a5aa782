"""fp32 -> fp16/bf16 conversions (tensor .to()), element by element and
carried across a loop's back edge (rounded in pairs by
ElementwiseOpToLLVM.cpp)."""
import triton.language as tl
import txl


@txl.jit
def trunc(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """y = x rounded to y's type (masked tail)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x.to(y_ptr.dtype.element_ty), mask=m)


@txl.jit
def trunc_2d(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """The same on a [BM, BN] tile of a row-major [M, N] tensor."""
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, x.to(y_ptr.dtype.element_ty), mask=m)


@txl.jit
def trunc_carried(x_ptr, y_ptr, steps, BLOCK: tl.constexpr):
    """Row i of x is rounded in iteration i - 1 and stored in iteration i:
    the rounded values cross the loop's back edge."""
    offs = tl.arange(0, BLOCK)
    h = tl.load(x_ptr + offs).to(y_ptr.dtype.element_ty)
    for i in range(1, steps):
        x = tl.load(x_ptr + i * BLOCK + offs)
        tl.store(y_ptr + (i - 1) * BLOCK + offs, h)
        h = x.to(y_ptr.dtype.element_ty)
    tl.store(y_ptr + (steps - 1) * BLOCK + offs, h)

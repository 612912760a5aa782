"""fp8 casts (plain Triton source): any float to and from float8e4nv /
float8e5 through `.to` and through a store to an fp8 pointer, fp8 to fp8,
and arithmetic on fp8 values (computed in fp32, each result rounded back)."""
import triton.language as tl
import txl


@txl.jit
def cast_roundtrip(x_ptr, y_ptr, z_ptr, n, SRC: tl.constexpr,
                   DST: tl.constexpr, BLOCK: tl.constexpr):
    """y = x.to(DST); z = y.to(SRC) (masked tail)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = x.to(DST)
    tl.store(y_ptr + offs, y, mask=m)
    tl.store(z_ptr + offs, y.to(SRC), mask=m)


@txl.jit
def store_converts(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """A store through y_ptr (fp8) converts x implicitly."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


@txl.jit
def fp8_arith(x_ptr, y_ptr, prod_ptr, max_ptr, gt_ptr, n,
              BLOCK: tl.constexpr):
    """prod = x * y, max = maximum(x, y) (fp8), gt = x > y."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    tl.store(prod_ptr + offs, x * y, mask=m)
    tl.store(max_ptr + offs, tl.maximum(x, y), mask=m)
    tl.store(gt_ptr + offs, (x > y).to(tl.int8), mask=m)


@txl.jit
def scalar_store(p, v):
    """p[0] = v (an fp32 scalar stored through an fp8 pointer)."""
    tl.store(p, v)

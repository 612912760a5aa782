# Triton front-end behaviours from test_core.py: tl.const pointers,
# tl.map_elementwise with a data-dependent `if`, tl.condition, a one-element
# `if` condition, isinstance on pointer dtypes, noinline helpers.
import triton
import triton.language as tl


@triton.jit
def copy_from_const(in_ptr: tl.const, out, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    val = tl.load(in_ptr + offsets, mask=mask)
    tl.store(out + offsets, val, mask=mask)


@triton.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def clamp_names(x, lo):
    y = x
    if x < lo:
        y = lo
    return y


@triton.jit
def map_compare(X, Y, Z, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    z = tl.map_elementwise(compare, x, y)
    w = tl.map_elementwise(clamp_names, x, y)
    tl.store(Z + tl.arange(0, BLOCK), z + w)


@triton.jit
def while_condition(Out, n):
    i = 0
    while tl.condition(i < n, disable_licm=True):
        i = i + 1
    tl.store(Out, i)


@triton.jit
def unsplat(x):
    condition = tl.load(x + tl.arange(0, 1)) > 42
    if condition:
        tl.store(x, 42)


@triton.jit
def short_circuiting(x):
    if (x is not None) and hasattr(x, "dtype") and isinstance(
            x.dtype, tl.pointer_type) and (x.dtype.element_ty == tl.int32) and (tl.load(x) > 42):
        tl.store(x, 42)


@triton.jit(noinline=True)
def scalar_helper(a, b):
    return a * b


@triton.jit
def calls_noinline(Out, n):
    tl.store(Out, scalar_helper(n, 3))


@triton.jit
def timer_as_constexpr(Out, func: tl.constexpr):
    start = func()
    tl.store(Out, start)
    tl.store(Out + 1, func())

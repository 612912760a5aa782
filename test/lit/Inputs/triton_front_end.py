# Triton front-end behaviours from test_core.py: a one-element `if`
# condition, isinstance on pointer dtypes, noinline helpers.
import triton
import triton.language as tl


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

# Conditional expressions on runtime conditions, tl.where on pointers and
# tensor methods of numbers (shapes of Triton test_core.py's test_if,
# test_where and test_for_iv).
import triton
import triton.language as tl


@triton.jit
def void_ternary(XTrue, XFalse, Ret):
    pid = tl.program_id(0)
    tl.store(Ret, tl.load(XTrue)) if pid % 2 == 0 else tl.store(Ret, tl.load(XFalse))


@triton.jit
def mixed_ternary(XFalse, Ret):
    pid = tl.program_id(0)
    val = 3.14 if pid % 2 == 0 else tl.load(XFalse)
    tl.store(Ret, val)


@triton.jit
def promote_ternary(X, Ret, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    val = x if pid == 0 else 0
    tl.store(Ret + offs, val)


@triton.jit
def tensor_cond(X, Ret, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.store(Ret + offs, x if x > 0 else 0.0)


@triton.jit
def where_ptrs(C, A, B, Out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    ptr = tl.where(tl.load(C), A, B)
    a = tl.load(A + offs).to(tl.pi32_t)
    b = tl.load(B + offs).to(tl.pi32_t)
    p = tl.where(tl.load(C + offs) != 0, a, b)
    tl.store(Out + offs, tl.load(ptr + offs) + tl.load(p))


@triton.jit
def for_iv(Out, lo, hi, iv: tl.constexpr):
    acc = 0
    acc = acc.to(tl.int64)
    for i in range(lo, hi, iv):
        acc += i
    tl.store(Out, acc)

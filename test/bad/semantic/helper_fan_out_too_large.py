# expect: 72:17: error: this call (helpers are inlined at every call) expands the kernel past 262144 statements
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
# 2^20 calls by fan-out: each helper calls the next twice.
@triton.jit
def f0(x):
    return f1(x) + f1(x)
@triton.jit
def f1(x):
    return f2(x) + f2(x)
@triton.jit
def f2(x):
    return f3(x) + f3(x)
@triton.jit
def f3(x):
    return f4(x) + f4(x)
@triton.jit
def f4(x):
    return f5(x) + f5(x)
@triton.jit
def f5(x):
    return f6(x) + f6(x)
@triton.jit
def f6(x):
    return f7(x) + f7(x)
@triton.jit
def f7(x):
    return f8(x) + f8(x)
@triton.jit
def f8(x):
    return f9(x) + f9(x)
@triton.jit
def f9(x):
    return f10(x) + f10(x)
@triton.jit
def f10(x):
    return f11(x) + f11(x)
@triton.jit
def f11(x):
    return f12(x) + f12(x)
@triton.jit
def f12(x):
    return f13(x) + f13(x)
@triton.jit
def f13(x):
    return f14(x) + f14(x)
@triton.jit
def f14(x):
    return f15(x) + f15(x)
@triton.jit
def f15(x):
    return f16(x) + f16(x)
@triton.jit
def f16(x):
    return f17(x) + f17(x)
@triton.jit
def f17(x):
    return f18(x) + f18(x)
@triton.jit
def f18(x):
    return f19(x) + f19(x)
@triton.jit
def f19(x):
    return f20(x) + f20(x)
@triton.jit
def f20(x):
    return x + 1
@triton.jit
def kernel(p):
    tl.store(p, f0(tl.load(p)))

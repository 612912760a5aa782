# expect: 9:16: error: recursive call to 'fact'
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def fact(x, n: tl.constexpr):
    if n > 0:
        return fact(x * n, n - 1)
    return x
@triton.jit
def kernel(p):
    tl.store(p, fact(tl.load(p), 3))

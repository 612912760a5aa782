# expect: 9:11: error: the condition of a 'while' must be a scalar, got <[64], int1>
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def f(x):
    i = 0
    while x > i:
        i += 1
    return x
@triton.jit
def kernel(P):
    y = tl.map_elementwise(f, tl.load(P + tl.arange(0, 64)))

# expect: 8:5: error: an 'if' on tensor elements in tl.map_elementwise's function gives <[64], int32> on one path and (int 1, int 2) on the other
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def f(x):
    if x > 0:
        return x
    return (1, 2)
@triton.jit
def kernel(P):
    y = tl.map_elementwise(f, tl.load(P + tl.arange(0, 64)))

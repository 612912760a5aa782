# expect: 8:5: error: an 'if' on tensor elements in tl.map_elementwise's function runs both branches (on every element), so they cannot have effects such as stores
# kernel: kernel
# signature: *i32
import triton
import triton.language as tl
@triton.jit
def f(x, p):
    if x > 0:
        tl.store(p, x)
    return x
@triton.jit
def kernel(P):
    x = tl.load(P + tl.arange(0, 64))
    y = tl.map_elementwise(f, x, P + tl.arange(0, 64))

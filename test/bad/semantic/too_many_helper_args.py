# expect: 11:17: error: scale() takes 2 positional arguments but 3 were given
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def scale(x, factor):
    return x * factor
@triton.jit
def kernel(p):
    tl.store(p, scale(tl.load(p), 2.0, 3.0))

# expect: 9:9: error: tl.expand_dims: invalid axis -3 for a result of rank 2
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.arange(0, 32)
    t = tl.expand_dims(x, -3)

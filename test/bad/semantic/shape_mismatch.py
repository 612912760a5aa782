# expect: 8:27: error: incompatible shapes [128] and [64]
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.arange(0, 128) + tl.arange(0, 64)
    tl.store(p + x, 1.0)

# expect: 8:9: error: atomic_and does not support fp32
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    o = tl.atomic_and(p + tl.arange(0, 16), 1.0)

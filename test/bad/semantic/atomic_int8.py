# expect: 8:9: error: atomic_max does not support int8
# kernel: kernel
# signature: *i8
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    o = tl.atomic_max(p + tl.arange(0, 16), 1)

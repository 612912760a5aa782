# expect: 8:12: error: 'tl.fancy_load' is not supported
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.fancy_load(p)

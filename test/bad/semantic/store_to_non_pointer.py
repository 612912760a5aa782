# expect: 8:5: error: unsupported ptr type fp32 in `tl.store`
# kernel: kernel
# signature: fp32, *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(x, p):
    tl.store(x, 1.0)

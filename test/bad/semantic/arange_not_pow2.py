# expect: 8:12: error: arange's range must be a power of two
# kernel: kernel
# signature: *fp32, 100
import triton
import triton.language as tl
@triton.jit
def kernel(p, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(p + offs, 0.0)

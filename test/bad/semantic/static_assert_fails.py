# expect: 8:5: error: static_assert failed: BLOCK must be at least 16
# kernel: kernel
# signature: *fp32, 8
import triton
import triton.language as tl
@triton.jit
def kernel(p, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 16, "BLOCK must be at least 16")
    tl.store(p + tl.arange(0, BLOCK), 0.0)

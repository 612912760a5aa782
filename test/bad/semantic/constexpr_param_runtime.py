# expect: 6:15: error: parameter 'BLOCK' is tl.constexpr but the signature gives a runtime value
# kernel: kernel
# signature: *fp32, i32
import triton.language as tl
@triton.jit
def kernel(p, BLOCK: tl.constexpr):
    pass

# expect: 6:1: error: kernel 'kernel' has 3 parameters but the signature has 2 entries
# kernel: kernel
# signature: *fp32, i32
import triton.language as tl
@triton.jit
def kernel(p, n, BLOCK: tl.constexpr):
    pass

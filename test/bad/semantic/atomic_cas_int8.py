# expect: 8:9: error: atomic_cas only supports elements with width {16, 32, 64}, got int8
# kernel: kernel
# signature: *i8
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    o = tl.atomic_cas(p, 0, 1)

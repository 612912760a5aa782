# expect: 8:9: error: integer literal '123456789012345678901234567890' is too large (it does not fit in 64 bits)
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = 123456789012345678901234567890
    tl.store(p, 1.0)
PRIME = 170141183460469231731687303715884105727  # host code may hold one

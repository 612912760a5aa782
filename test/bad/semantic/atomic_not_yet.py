# expect: 8:8: error: 'tl.atomic_add' is not supported
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    tl.atomic_add(p, 1.0)

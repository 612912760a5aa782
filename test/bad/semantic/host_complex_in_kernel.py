# expect: 8:15: error: 'complex number' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    x = 1.0 + 2j
    tl.store(p, 1.0)

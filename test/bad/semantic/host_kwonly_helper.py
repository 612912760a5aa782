# expect: 7:18: error: 'keyword-only parameter' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def helper(x, *, scale):
    return x * scale
@triton.jit
def kernel(p, n):
    tl.store(p, helper(1.0, scale=2.0))

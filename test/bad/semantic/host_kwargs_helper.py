# expect: 7:22: error: '**kwargs parameter' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def helper(x, y=1, **options):
    return x
@triton.jit
def kernel(p, n):
    tl.store(p, helper(1.0))

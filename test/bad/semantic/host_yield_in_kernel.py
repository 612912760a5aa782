# expect: 8:5: error: 'yield' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    yield n
    tl.store(p, 1.0)

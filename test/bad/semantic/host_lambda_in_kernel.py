# expect: 8:9: error: 'lambda' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    f = lambda x: x + 1
    tl.store(p, f(1.0))

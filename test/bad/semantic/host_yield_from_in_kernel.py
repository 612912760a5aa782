# expect: 8:9: error: 'yield from' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    x = yield from range(n)
    tl.store(p, 1.0)

# expect: 9:13: error: 'return' inside a runtime loop is not supported
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    for i in range(n):
            return
    tl.store(p, 1.0)

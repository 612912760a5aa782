# expect: 8:9: error: 'set display' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    s = {1, 2}
    tl.store(p, 1.0)

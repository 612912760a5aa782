# expect: 8:5: error: 'type alias' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    type T = int
    tl.store(p, 1.0)

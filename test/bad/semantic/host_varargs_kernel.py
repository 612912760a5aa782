# expect: 7:19: error: '*args parameter' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n, *rest):
    tl.store(p, 1.0)

# expect: 8:9: error: comprehensions are not supported in kernels
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    s = {i for i in range(4)}
    tl.store(p, 1.0)

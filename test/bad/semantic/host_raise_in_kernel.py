# expect: 9:9: error: 'raise statement' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    if n < 0:
        raise ValueError("negative")
    tl.store(p, 1.0)

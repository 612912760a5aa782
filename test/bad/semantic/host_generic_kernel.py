# expect: 7:12: error: 'type parameter' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel[T](p, n):
    tl.store(p, 1.0)

# expect: 9:5: error: 'del statement' is not supported in a kernel
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    x = tl.load(p)
    del x
    tl.store(p, 1.0)

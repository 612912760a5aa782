# expect: 9:9: error: mask must have boolean scalar type
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    offs = tl.arange(0, 32)
    x = tl.load(p + offs, mask=offs)

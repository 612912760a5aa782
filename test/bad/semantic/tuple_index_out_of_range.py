# expect: 9:10: error: tuple index 2 out of range
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    t = (1, 2)
    x = t[2]

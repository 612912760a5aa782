# expect: 9:29: error: an f-string in a kernel can only format compile-time values, got a tensor
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    x = tl.load(p)
    tl.static_print(f"x is {x}")

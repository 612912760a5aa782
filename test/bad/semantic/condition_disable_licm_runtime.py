# expect: 9:11: error: tl.condition: disable_licm must be a compile-time bool
# kernel: kernel
# signature: *i32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(P, n):
    i = 0
    while tl.condition(i < n, disable_licm=n > 0):
        i += 1

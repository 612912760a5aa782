# expect: 9:5: error: 'v' has type fp32 in the 'if' branch but int32 in the 'else' branch
# kernel: kernel
# signature: *fp32, i32
import triton
import triton.language as tl
@triton.jit
def kernel(p, n):
    v = n
    if n > 0:
        v = tl.load(p)
    tl.store(p, v)

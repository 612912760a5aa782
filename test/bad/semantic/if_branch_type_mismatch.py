# expect: 9:5: error: Mismatched type for v between then block (fp32) and else block (int32)
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

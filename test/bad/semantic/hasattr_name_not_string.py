# expect: 9:8: error: hasattr(): the attribute name must be a string
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p)
    if hasattr(x, 3):
        tl.store(p, x)

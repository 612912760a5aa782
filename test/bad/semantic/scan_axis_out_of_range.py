# expect: 8:9: error: tl.cumsum: invalid axis 1. Expected -1 <= axis < 1
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    y = tl.cumsum(tl.load(x + tl.arange(0, 16)), 1)

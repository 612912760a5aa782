# expect: 8:9: error: tl.cumsum: cannot scan a scalar
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    y = tl.cumsum(tl.load(x))

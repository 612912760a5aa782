# expect: 8:9: error: tl.cumprod: axis must be an integer, got None
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    y = tl.cumprod(tl.load(x + tl.arange(0, 16)), None)

# expect: 8:9: error: reduce_or only supported for integers, got fp32
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    y = tl.reduce_or(tl.load(x + tl.arange(0, 16)), 0)

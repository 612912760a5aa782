# expect: 8:9: error: tl.topk: k must be a power of two in [1, 16], got 3
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    y = tl.topk(tl.load(x + tl.arange(0, 16)), 3)

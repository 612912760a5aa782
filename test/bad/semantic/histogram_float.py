# expect: 8:9: error: tl.histogram only supports integer input, got <[16], fp32>
# kernel: kernel
# signature: *fp32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    h = tl.histogram(tl.load(x + tl.arange(0, 16)), 8)

# expect: 9:9: error: tl.histogram only supports 1-D input
# kernel: kernel
# signature: *i32:16
import triton.language as tl
import txl
@txl.jit
def kernel(x):
    r = tl.arange(0, 16)
    h = tl.histogram(tl.load(x + r[:, None] * 16 + r[None, :]), 8)

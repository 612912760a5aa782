# expect: 9:9: error: tl.cat requires tensors of the same shape, got [16] and [32]
# kernel: kernel
# signature: *fp32
import triton
import triton.language as tl
@triton.jit
def kernel(p):
    x = tl.load(p + tl.arange(0, 16))
    y = tl.cat(x, tl.load(p + tl.arange(0, 32)), can_reorder=True)
